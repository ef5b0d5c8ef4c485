export { type JsonSyntaxError, jsonSyntaxError } from '../core/json-syntax-error.js';
export {
  type ArgumentProblem,
  describeValue,
  type ProblemCode,
  renderProblems,
  ToolArgumentsError,
} from './argument-problem.js';
export { type DeclaredBoolean, declaredBooleans } from './boolean-census.js';
export { asClientSends } from './client-coercion.js';
export {
  MAX_DECLARED_PROBLEMS,
  type MissingOptions,
  type MistypedOptions,
  missingArguments,
  mistypedArguments,
} from './declared-arguments.js';
export {
  type ArgumentReading,
  defineTool,
  type InProcessTool,
  invalidArgumentsResult,
  type Refusal,
  refusalResult,
  type ToolOutput,
  type ToolSpec,
} from './define-tool.js';
export * from './field.js';
export type { GrantScopeOption } from './grant-scope-option.js';
export {
  type InProcessProvider,
  type InProcessProviderOptions,
  inProcessProvider,
} from './in-process-provider.js';
export {
  decodeJsonText,
  describeJsonSyntaxError,
  type JsonTextReading,
  jsonBody,
  looksLikeJsonContainer,
  readJsonText,
} from './json-text.js';
export { keySpellings, keyWords } from './key-spellings.js';
export { editDistance, nearMiss } from './near-miss.js';
export { fieldSchema, offeredSchema } from './offered-schema.js';
export {
  assertPortableAsDeclared,
  type DeclaredTool,
  NotPortableAsDeclared,
  type PortabilityDefect,
  portabilityDefects,
} from './portable-as-declared.js';
export {
  argumentRefusal,
  argumentRefusalNote,
  type DeclaredCheck,
  MAX_SHOWN_SCHEMA,
  refuseMissingArguments,
  refuseMistypedArguments,
} from './refusal-note.js';
export { resolveLocalRef } from './schema-pointer.js';
export { isReadableSchema } from './schema-readable.js';
export { makeToolContext } from './tool-context.js';
export { ToolDefinitionError } from './tool-definition-error.js';
export { yesOrNo } from './yes-or-no.js';
