import { isPlainObject } from '../../core/json.js';
import type { WireTool } from '../../core/model.js';
import type { RejectionEvidence } from './rejection-evidence.js';

/** What one way of pointing at a tool found in an error. */
export interface DialectFinding {
  /** Indexes into the tools this request sent. */
  readonly indices: readonly number[];
  /** The error used this dialect's path form at all (even if no index could be trusted). */
  readonly sawPath: boolean;
  /** Found by the tool's own name or schema text rather than by position (stronger evidence). */
  readonly byName: boolean;
}

/** One way providers point at a tool definition (each vendor's live in its own folder). */
export type RejectionDialect = (evidence: RejectionEvidence, sent: readonly WireTool[]) => DialectFinding;

/** A dialect's finding when its form is nowhere in the error. */
export const NOTHING_FOUND: DialectFinding = { indices: [], sawPath: false, byName: false };

/** True when `index` points at one of the tools sent. */
export function inRange(index: number, sent: readonly WireTool[]): boolean {
  return Number.isInteger(index) && index >= 0 && index < sent.length;
}

/** A positional finding: every match of `pattern` in `sources`, turned into an index by `toIndex`. */
export function byIndex(
  sources: readonly string[],
  pattern: RegExp,
  sent: readonly WireTool[],
  toIndex: (m: RegExpMatchArray) => number,
): DialectFinding {
  const indices: number[] = [];
  let sawPath = false;
  for (const text of sources) {
    for (const match of text.matchAll(pattern)) {
      sawPath = true;
      const index = toIndex(match);
      if (inRange(index, sent)) indices.push(index);
    }
  }
  return { indices, sawPath, byName: false };
}

/** The properties a tool declares (none when its parameters have no `properties` object). */
export function propertiesOf(tool: WireTool): Record<string, unknown> {
  const props = tool.parameters['properties'];
  return isPlainObject(props) ? props : {};
}

/** The index of the tool called `name` in `sent`, or -1. */
export function indexOfName(sent: readonly WireTool[], name: string): number {
  return sent.findIndex((tool) => tool.name === name);
}

/**
 * The last resort, for servers with none of the vendors' forms: when a text talks about a schema, any
 * `tools[N]` / `tools.N.` index and any quoted tool name of this request.
 */
export const genericToolMentions: RejectionDialect = (evidence, sent) => {
  const indices: number[] = [];
  for (const text of evidence.texts) {
    if (!/parameters|input_?schema|schema|properties/i.test(text)) continue;
    for (const m of text.matchAll(/\btools(?:\[(\d+)\]|\.(\d+)(?=\.))/g)) {
      const index = Number(m[1] ?? m[2]);
      if (inRange(index, sent)) indices.push(index);
    }
    for (const m of text.matchAll(/\b(?:function|tool)\s+['"]([^'"]+)['"]/gi)) {
      const index = indexOfName(sent, m[1] ?? '');
      if (index >= 0) indices.push(index);
    }
  }
  return { indices, sawPath: false, byName: false };
};
