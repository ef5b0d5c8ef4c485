/**
 * The seam every tool definition passes before a model sees it: the portable schema profile
 * (check, repair, lift to JSON text, exclude), derived descriptions, model-safe wire names and the
 * name census, plus the decoders the runtime applies to lifted arguments and renamed keys.
 */
export { type ConformResult, conformParameters, schemaIssues, type Verdict } from './conform-parameters.js';
export { isCosmeticRepair } from './cosmetic-repair.js';
export {
  type DecodedArguments,
  decodeLiftedArguments,
  describeLiftFailures,
  type LiftFailure,
  readJsonText,
} from './decode-lifted.js';
export {
  cutText,
  derivedDescription,
  hasDescription,
  WIRE_DESCRIPTION_LIMIT,
  wireDescription,
} from './describe-tool.js';
export {
  type ArgumentStep,
  EVERY_ELEMENT,
  type LiftedArgument,
  renderArgumentPath,
} from './lifted-argument.js';
export {
  type CensusOptions,
  type NameCensus,
  nameCensus,
  RESERVED_TOOL_NAMES,
  realNameOf,
} from './name-census.js';
export { fillOmittedNulls } from './omitted-nulls.js';
export { emptyObjectSchema, type JsonType, PORTABLE_TYPES, type PortableType } from './profile.js';
export {
  PROPERTY_KEY_PATTERN,
  type RenamedKey,
  restoreDeclaredKeys,
} from './renamed-keys.js';
export { describeIssue, type IssueAction, type RuleId, type SchemaIssue } from './schema-issue.js';
export { describeOrigin, type ToolOrigin } from './seam-log.js';
export { type SeamCounts, seamCounts, seamSummaryLine } from './seam-summary.js';
export {
  type ExcludedTool,
  type ExclusionReason,
  type OfferedTool,
  type OfferOptions,
  offerTool,
  offerTools,
  type ToolOffer,
} from './tool-offer.js';
export { createToolSeam, type SeamTurn, type ToolSeam, type ToolSeamOptions } from './tool-seam.js';
export { type WholeWireTool, wholeWireTool } from './whole-wire-tool.js';
export { WIRE_NAME_PATTERN, wireName } from './wire-name.js';
