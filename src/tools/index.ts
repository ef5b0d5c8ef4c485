export { type JsonSyntaxError, jsonSyntaxError } from '../core/json-syntax-error.js';
export {
  type ArgumentProblem,
  describeValue,
  type ProblemCode,
  renderProblems,
  ToolArgumentsError,
} from './arguments/argument-problem.js';
export { asClientSends } from './arguments/client-coercion.js';
export {
  MAX_DECLARED_PROBLEMS,
  type MissingOptions,
  type MistypedOptions,
  missingArguments,
  mistypedArguments,
} from './arguments/declared-arguments.js';
export {
  decodeJsonText,
  describeJsonSyntaxError,
  type JsonTextReading,
  jsonBody,
  looksLikeJsonContainer,
  readJsonText,
} from './arguments/json-text.js';
export { keySpellings, keyWords } from './arguments/key-spellings.js';
export { editDistance, nearMiss } from './arguments/near-miss.js';
export {
  assertPortableAsDeclared,
  type DeclaredTool,
  NotPortableAsDeclared,
  type PortabilityDefect,
  portabilityDefects,
} from './arguments/portable-as-declared.js';
export {
  argumentRefusal,
  argumentRefusalNote,
  type DeclaredCheck,
  MAX_SHOWN_SCHEMA,
  refuseMissingArguments,
  refuseMistypedArguments,
} from './arguments/refusal-note.js';
export { resolveLocalRef } from './arguments/schema-pointer.js';
export { isReadableSchema } from './arguments/schema-readable.js';
export { type DeclaredBoolean, declaredBooleans } from './fields/boolean-census.js';
export {
  type ArgumentReading,
  defineTool,
  type InProcessTool,
  invalidArgumentsResult,
  type Refusal,
  refusalResult,
  type ToolOutput,
  type ToolSpec,
} from './fields/define-tool.js';
export * from './fields/field.js';
export type { GrantScopeOption } from './fields/grant-scope-option.js';
export {
  type InProcessProvider,
  type InProcessProviderOptions,
  inProcessProvider,
} from './fields/in-process-provider.js';
export { fieldSchema, offeredSchema } from './fields/offered-schema.js';
export { ToolDefinitionError } from './fields/tool-definition-error.js';
export { yesOrNo } from './fields/yes-or-no.js';
export { credentialVariables, redactSecrets } from './redact-secrets.js';
export { makeToolContext } from './registry/tool-context.js';
