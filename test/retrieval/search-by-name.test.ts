import { describe, expect, it } from 'vitest';
import { answerToolSearch } from '../../src/retrieval/meta-tools.js';
import type { RetrievalTool } from '../../src/retrieval/retrieval-tool.js';
import { ToolRetriever } from '../../src/retrieval/tool-retriever.js';
import { wireName } from '../../src/seam/index.js';
import { corpusServers } from '../seam/corpus.js';
import { server, tool } from './fixtures.js';

/** Every real MCP tool of the corpus, named and grouped as the runtime names an MCP server's tools. */
function corpusTools(): RetrievalTool[] {
  return corpusServers().flatMap((s) => {
    const group = server(`mcp/${s.stem}`);
    return s.tools.map((t) => ({
      name: `mcp/${s.stem}/${String(t.name)}`,
      description: typeof t.description === 'string' ? t.description : '',
      parameters: t.inputSchema,
      group,
    }));
  });
}

const tools = corpusTools();
const retriever = new ToolRetriever(tools);
const wireToReal = new Map(tools.map((t) => [wireName(t.name), t.name]));
const realName = (n: string): string | undefined => wireToReal.get(n);
const first = (query: string): string | undefined => retriever.search(query, { realName })[0]?.name;
/** The name a server gives its tool (the part after `mcp/<server>/`). */
const ownName = (name: string): string => name.slice(name.lastIndexOf('/') + 1);

describe('tool_search for a name', () => {
  it('answers the tool a query names by its real name first, for every corpus tool', () => {
    // "get-actor-run" came after "get-actor-run-list", "hover" after "playwright_hover".
    const missed = tools.filter((t) => first(t.name) !== t.name).map((t) => t.name);
    expect(missed).toEqual([]);
  });

  it('answers the tool first by the wire name the model saw it under, a cut and hashed one too', () => {
    const missed = tools.filter((t) => first(wireName(t.name)) !== t.name).map((t) => wireName(t.name));
    expect(missed).toEqual([]);
  });

  it('answers the tool first by the name its server gives it, when no other tool has that name', () => {
    const count = new Map<string, number>();
    for (const t of tools) count.set(ownName(t.name), (count.get(ownName(t.name)) ?? 0) + 1);
    const unique = tools.filter((t) => count.get(ownName(t.name)) === 1);
    const missed = unique.filter((t) => first(ownName(t.name)) !== t.name).map((t) => t.name);
    expect(missed).toEqual([]);
  });

  it('puts every tool of that name first when servers share it, then the rest of the ranking', () => {
    const r = new ToolRetriever([
      tool('mcp/playwright/playwright_hover', 'Hover an element on the page', server('mcp/playwright')),
      tool('mcp/devtools/hover', 'Hover over the provided element', server('mcp/devtools')),
      tool('mcp/browser/hover', 'Move the pointer over an element', server('mcp/browser')),
    ]);
    expect(r.search(' hover ').map((h) => h.name)).toEqual([
      'mcp/browser/hover',
      'mcp/devtools/hover',
      'mcp/playwright/playwright_hover',
    ]);
  });

  it('is what the tool_search meta-tool answers, given the wire names', () => {
    // A name cut to fit, with a hash: no word of it leads the ranking to the tool.
    const hashed = tools.find(
      (t) => !retriever.search(wireName(t.name)).some((h) => h.name === t.name),
    ) as RetrievalTool;
    const result = answerToolSearch(retriever, { query: wireName(hashed.name), limit: 1 }, { realName });
    expect(result.data).toMatchObject({ hits: [{ name: hashed.name }] });
  });
});
