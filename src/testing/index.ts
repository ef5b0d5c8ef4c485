export type { Answer } from './answer.js';
export { type EmbeddingRequest, STAND_IN_DIMENSIONS, standInVector } from './embedding-answer.js';
export type {
  LastToolResult,
  RecordedRequest,
  RequestOutcome,
  ScriptRequest,
  StandInFamily,
} from './recorded-request.js';
export {
  checkTurn,
  loadScript,
  type RawAnswer,
  type ScriptError,
  type ScriptToolCall,
  type ScriptTurn,
  type TurnMatch,
  type TurnOptions,
} from './script.js';
export { ScriptedModel, type ScriptedModelOptions } from './scripted-model.js';
export { type StandIn, type StandInModelConfig, type StandInOptions, startStandIn } from './stand-in.js';
