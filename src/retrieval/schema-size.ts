import type { RetrievalTool } from './retrieval-tool.js';

/** Share of the model's context window the full tool schemas of one turn may take. */
export const SCHEMA_WINDOW_FRACTION = 0.125;
/** Characters per token assumed when turning a token window into a character budget. */
export const CHARS_PER_TOKEN = 4;

/** The schema budget in characters for a context window in tokens; undefined when the window is unknown. */
export function schemaBudgetChars(contextWindowTokens: number | undefined): number | undefined {
  if (
    contextWindowTokens === undefined ||
    !Number.isFinite(contextWindowTokens) ||
    contextWindowTokens <= 0
  ) {
    return undefined;
  }
  return Math.floor(contextWindowTokens * SCHEMA_WINDOW_FRACTION * CHARS_PER_TOKEN);
}

const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {} };
const sizes = new WeakMap<RetrievalTool, number>();

/** Characters the tool's function definition takes on the wire (memoised per tool object). */
export function schemaSize(tool: RetrievalTool): number {
  let size = sizes.get(tool);
  if (size === undefined) {
    size = JSON.stringify({
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description ?? '',
        parameters: tool.parameters ?? EMPTY_OBJECT_SCHEMA,
      },
    }).length;
    sizes.set(tool, size);
  }
  return size;
}
