import { nearMiss } from '../../tools/arguments/near-miss.js';
import { globMatch } from '../glob-match.js';
import type { DenyRule } from '../runtime-options.js';

/** One configuration entry that names tools: a deny-list pattern or a `disabledTools` name. */
export interface ToolNameEntry {
  /** Where it is written, e.g. `denyList[0]`. */
  readonly key: string;
  /** The name or pattern as written. */
  readonly pattern: string;
  /** True when `pattern` is a glob (`*`, `?`, `[…]`); else it names one tool exactly. */
  readonly glob: boolean;
  /** What the entry does when it covers nothing, e.g. "refuses nothing". */
  readonly idle: string;
}

/** The deny-list and `disabledTools` entries of a configuration, in the order written. */
export function toolNameEntries(
  denyList: readonly DenyRule[],
  disabledTools: readonly string[],
): ToolNameEntry[] {
  return [
    ...denyList.map((rule, i) => ({
      key: `denyList[${i}]`,
      pattern: rule.tool,
      glob: true,
      idle: 'refuses nothing',
    })),
    ...disabledTools.map((name, i) => ({
      key: `disabledTools[${i}]`,
      pattern: name,
      glob: false,
      idle: 'switches nothing off',
    })),
  ];
}

/**
 * Checks configuration entries against the tools that were served, each once: an entry that covers a
 * tool is settled quietly, one that covers none is settled with a warning naming it and the nearest
 * real name. A misspelt entry must not be ignored without a word: a tool the person meant to refuse
 * would run.
 */
export class UnmatchedEntries {
  private pending: readonly ToolNameEntry[];

  constructor(entries: readonly ToolNameEntry[]) {
    this.pending = entries;
  }

  /**
   * The warnings for entries not settled before that cover none of `names`; `unlisted` names the
   * providers whose tools are not known yet (their listing failed), of which an entry may be one.
   */
  check(names: readonly string[], unlisted: readonly string[] = []): string[] {
    if (this.pending.length === 0) return [];
    const warnings: string[] = [];
    for (const entry of this.pending) {
      if (names.some((name) => covers(entry, name))) continue;
      const maybe = unlisted.filter((provider) => couldServe(provider, entry));
      warnings.push(unmatchedWarning(entry, names, maybe));
    }
    this.pending = [];
    return warnings;
  }
}

function covers(entry: ToolNameEntry, name: string): boolean {
  return entry.glob ? globMatch(entry.pattern, name) : entry.pattern === name;
}

/** The entry's text before its first wildcard (all of it for a plain name). */
function literalHead(entry: ToolNameEntry): string {
  const at = entry.glob ? entry.pattern.search(/[*?[]/) : -1;
  return at === -1 ? entry.pattern : entry.pattern.slice(0, at);
}

/**
 * Whether a provider that did not list its tools could serve one the entry names: an MCP server's tools
 * all start `mcp/<server>/`; any other provider's names could be anything.
 */
function couldServe(provider: string, entry: ToolNameEntry): boolean {
  if (!provider.startsWith('mcp/')) return true;
  const head = literalHead(entry);
  const prefix = `${provider}/`;
  return head.startsWith(prefix) || prefix.startsWith(head);
}

/** One sentence: the entry, that it covers no tool and so does nothing, and the nearest tool name. */
export function unmatchedWarning(
  entry: ToolNameEntry,
  names: readonly string[],
  unlisted: readonly string[] = [],
): string {
  const nearest = nearestName(entry, names);
  const hint =
    nearest === undefined
      ? 'no tool has a name close to it (`toolseam tools` lists them)'
      : `the nearest tool name is ${JSON.stringify(nearest)}`;
  const waiting =
    unlisted.length === 0
      ? ''
      : ` (${unlisted.join(', ')} could not list ${unlisted.length > 1 ? 'their' : 'its'} tools, so it may name one of those)`;
  return `"${entry.key}" in the config (${JSON.stringify(entry.pattern)}) matches no tool, so it ${entry.idle}; ${hint}${waiting}.`;
}

/**
 * The real name an entry was probably meant to match: its text or (for a glob) its head before the
 * first wildcard, compared with names case and separators aside; for a glob, first a name it matches
 * when case is ignored.
 */
function nearestName(entry: ToolNameEntry, names: readonly string[]): string | undefined {
  if (!entry.glob || !/[*?[]/.test(entry.pattern)) return nearMiss(entry.pattern, names);
  const lower = entry.pattern.toLowerCase();
  const caseless = names.find((name) => globMatch(lower, name.toLowerCase()));
  if (caseless !== undefined) return caseless;
  const head = literalHead(entry);
  if (head === '') return undefined;
  const heads = new Map<string, string>();
  for (const name of names) {
    const start = name.slice(0, head.length);
    if (!heads.has(start)) heads.set(start, name);
  }
  const near = nearMiss(head, [...heads.keys()]);
  return near === undefined ? undefined : heads.get(near);
}
