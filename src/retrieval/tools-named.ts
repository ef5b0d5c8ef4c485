import { platformFirst, type RetrievalTool } from './retrieval-tool.js';

/**
 * The tools a `tool_search` query names exactly: `exact` (the tool with that real name, or the real name
 * behind that wire name), then those whose server calls them so (the part after the last `/`), platform
 * tools first.
 */
export function toolsNamed(
  name: string,
  exact: RetrievalTool | undefined,
  tools: readonly RetrievalTool[],
): RetrievalTool[] {
  const out = exact ? [exact] : [];
  if (name.includes('/')) return out;
  const own = tools.filter(
    (t) => t !== exact && t.name.endsWith(name) && t.name.charAt(t.name.length - name.length - 1) === '/',
  );
  return out.concat(own.sort(platformFirst));
}
