import { type Logger, silentLogger } from '../core/logger.js';
import type { ToolDefinition } from '../core/tool.js';
import { type ConformResult, conformParameters } from './conform-parameters.js';
import { type NameCensus, nameCensus } from './name-census.js';
import { seamCounts, seamSummaryLine } from './seam-summary.js';
import { type ExcludedTool, type OfferedTool, offerWith } from './tool-offer.js';

/** One turn's tools through the seam and the census. */
export interface SeamTurn extends NameCensus {
  /** Tools left out by the seam (no name, no portable form) and by the census (names). */
  readonly excluded: readonly ExcludedTool[];
}

/** The per-turn seam: remembers what it made of each definition. */
export interface ToolSeam {
  /**
   * Offers a turn's tools (each tagged with its provider and app) and settles their wire names.
   * A definition seen before costs a lookup; when every definition is the one seen last time, the
   * previous turn's result itself comes back (compare by identity to skip downstream work).
   */
  prepare(tools: readonly ToolDefinition[]): SeamTurn;
}

/** The key of the seam's one `warn` line, so runtimes sharing a logger say it once between them. */
const SUMMARY_KEY = 'seam\u0000summary';

/** Options of `createToolSeam`. */
export interface ToolSeamOptions {
  readonly logger?: Logger;
  /** The runtime's own tool names (default `RESERVED_TOOL_NAMES`). */
  readonly reserved?: readonly string[];
}

type Item = OfferedTool | ExcludedTool;

/**
 * Creates the per-turn seam. Definitions are fingerprinted by identity (a `ToolDefinition` is
 * immutable: a provider whose tool changes hands out a new object), and a new definition that
 * shares its parameters object with an earlier one reuses that schema's conform result.
 * The first turn with a tool models see adjusted or not at all logs one `warn` line counting them;
 * each tool's own line is `info` (see `logOnce`).
 */
export function createToolSeam(options: ToolSeamOptions = {}): ToolSeam {
  const logger = options.logger ?? silentLogger;
  const census = options.reserved === undefined ? { logger } : { logger, reserved: options.reserved };
  const byDefinition = new WeakMap<ToolDefinition, Item>();
  const bySchema = new WeakMap<object, ConformResult>();
  const conform = (declared: unknown): ConformResult => {
    if (typeof declared !== 'object' || declared === null) return conformParameters(declared);
    let result = bySchema.get(declared);
    if (result === undefined) {
      result = conformParameters(declared);
      bySchema.set(declared, result);
    }
    return result;
  };
  let lastItems: Item[] = [];
  let lastTurn: SeamTurn | undefined;
  let summarised = logger === silentLogger;
  return {
    prepare(tools) {
      const items: Item[] = new Array(tools.length);
      let same = lastTurn !== undefined && tools.length === lastItems.length;
      for (let i = 0; i < tools.length; i += 1) {
        const definition = tools[i] as ToolDefinition;
        let item = byDefinition.get(definition);
        if (item === undefined) {
          item = offerWith(definition, { logger }, conform);
          byDefinition.set(definition, item);
        }
        items[i] = item;
        if (same && lastItems[i] !== item) same = false;
      }
      if (same && lastTurn !== undefined) return lastTurn;
      const offered: OfferedTool[] = [];
      const excluded: ExcludedTool[] = [];
      for (const item of items) {
        if (item.kind === 'offered') offered.push(item);
        else excluded.push(item);
      }
      const settled = nameCensus(offered, census);
      lastItems = items;
      lastTurn = {
        offered: settled.offered,
        excluded: [...excluded, ...settled.excluded],
        wireToReal: settled.wireToReal,
      };
      if (!summarised) summarised = summarise(logger, lastTurn);
      return lastTurn;
    },
  };
}

/** Logs the run's one line about the seam when a model would notice anything; true once it is said. */
function summarise(logger: Logger, turn: SeamTurn): boolean {
  const counts = seamCounts(turn);
  const message = seamSummaryLine(counts);
  if (message === undefined) return false;
  logger.once(SUMMARY_KEY, { level: 'warn', scope: 'seam', message, fields: { ...counts } });
  return true;
}
