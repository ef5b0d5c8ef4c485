import type { ToolResult } from '../../core/tool.js';

/** The longest result text a tool may hand back (as an MCP server's answer may be 10 MB); longer is dropped unread. */
export const MAX_RESULT_CHARS = 10_000_000;

/**
 * A result whose text is longer than `limit` characters, replaced by an error saying so: nothing reads,
 * redacts or stores text that size (the model is shown a few thousand characters of a result at most).
 */
export function withinResultLimit(name: string, result: ToolResult, limit: number): ToolResult {
  if (result.content.length <= limit) return result;
  const size = result.content.length.toLocaleString('en-US');
  return {
    content:
      `Error: ${name} returned ${size} characters, past the ${limit.toLocaleString('en-US')} a tool result may hold, so its result was dropped unread. ` +
      'It ran; only its answer was too large to read. Ask it for a smaller part (a narrower query, a page, a range) instead.',
    isError: true,
    data: { code: 'result_too_large', chars: result.content.length, limitChars: limit },
  };
}
