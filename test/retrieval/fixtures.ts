import fc from 'fast-check';
import { expect } from 'vitest';
import type { ToolGroup } from '../../src/core/tool.js';
import type { RetrievalTool } from '../../src/retrieval/retrieval-tool.js';

/** A tool with a one-string parameter schema. */
export function tool(
  name: string,
  description: string,
  group?: ToolGroup,
  extra: Partial<RetrievalTool> = {},
): RetrievalTool {
  return {
    name,
    description,
    parameters: { type: 'object', properties: { input: { type: 'string', description: 'what to work on' } } },
    ...(group ? { group } : {}),
    ...extra,
  };
}

/** `tool_0 … tool_{n-1}`, each "does thing i". */
export function numbered(n: number, prefix = 'tool_', group?: ToolGroup): RetrievalTool[] {
  return Array.from({ length: n }, (_, i) => tool(`${prefix}${i}`, `does thing ${i}`, group));
}

/** A platform group. */
export function own(key: string, purpose = ''): ToolGroup {
  return { key, own: true, purpose };
}

/** A server or app group. */
export function server(key: string, purpose = ''): ToolGroup {
  return { key, own: false, purpose };
}

/** Names of tools. */
export function names(tools: readonly RetrievalTool[]): string[] {
  return tools.map((t) => t.name);
}

const VERBS = ['list', 'get', 'create', 'update', 'delete', 'search', 'export', 'archive'];
const NOUNS = ['entries', 'records', 'pages', 'issues', 'files', 'notes', 'events', 'reports'];

/** An MCP server's tools: `mcp/<server>/<verb>_<noun>_<i>`, described as the reference's fixtures are. */
export function serverTools(serverName: string, count: number): RetrievalTool[] {
  const g = server(`mcp/${serverName}`);
  return Array.from({ length: count }, (_, i) => {
    const verb = VERBS[i % VERBS.length] as string;
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length] as string;
    const cap = verb[0]?.toUpperCase() + verb.slice(1);
    return tool(
      `mcp/${serverName}/${verb}_${noun}_${i}`,
      `${cap} the ${noun} kept by the ${serverName} service, filtered by owner and date.`,
      g,
    );
  });
}

/**
 * Checks that a scan answers as the pattern it replaced (`reference`) on `runs` random texts, each
 * joined from at most `most` of `pieces`: the shapes the pattern reads.
 */
export function expectSameOn<T>(
  pieces: readonly string[],
  most: number,
  scan: (text: string) => T,
  reference: (text: string) => T,
  runs = 5000,
): void {
  const texts = fc.array(fc.constantFrom(...pieces), { maxLength: most }).map((parts) => parts.join(''));
  fc.assert(
    fc.property(texts, (text) => {
      expect(scan(text)).toEqual(reference(text));
    }),
    { numRuns: runs },
  );
}
