export type { LastToolResult, RecordedRequest, RequestOutcome, StandInFamily } from './recorded-request.js';
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
export { type Answer, ScriptedModel } from './scripted-model.js';
export { type StandIn, type StandInModelConfig, type StandInOptions, startStandIn } from './stand-in.js';
