import { isPlainObject } from '../../core/json.js';
import { jsonTextOf } from '../../core/json-text-of.js';
import { headOf } from '../../core/text-cut.js';

/** A `tools/call` answer turned into what the model reads. */
export interface McpResultText {
  readonly text: string;
  /** The server marked the result as a tool error (`isError: true`). */
  readonly isError: boolean;
  /** The server's `structuredContent`, for a host (never sent to the model). */
  readonly structured?: unknown;
}

/**
 * Reads a `tools/call` result defensively: text content is joined, images, audio and resources are
 * described rather than inlined, the older `toolResult` form is read as text, `structuredContent`
 * stands in when there is no content, and the text is cut at `maxChars` with a note saying how
 * much there was. `hide` (secrets hidden) runs before the cut, so a cut never leaves part of one showing.
 */
export function mcpResultText(
  result: unknown,
  maxChars: number,
  hide: (text: string) => string = (text) => text,
): McpResultText {
  if (!isPlainObject(result)) {
    return { text: `The server answered with ${describe(result)} instead of a tool result.`, isError: true };
  }
  const isError = result.isError === true;
  const structured = result.structuredContent;
  const parts: string[] = [];
  let length = 0;
  let total = 0;
  for (const block of contentBlocks(result)) {
    const part = describeBlock(block);
    total += part.length + (parts.length > 0 ? 1 : 0);
    // Stop collecting once over the limit, but keep counting so the note can say how much there was.
    if (length <= maxChars) {
      parts.push(part);
      length = total;
    }
  }
  if (parts.length === 0 && structured !== undefined) {
    const json = safeJson(structured);
    parts.push(json);
    total = json.length;
  }
  const joined = parts.join('\n');
  const empty = isError
    ? 'The tool reported a failure and said nothing more.'
    : 'The tool finished and returned no content.';
  const text = hide(joined.trim() === '' ? empty : joined);
  return {
    text: cut(text, maxChars, Math.max(total, text.length)),
    isError,
    ...(structured === undefined ? {} : { structured }),
  };
}

/**
 * The result's content blocks: its `content` list; the `toolResult` of a server on protocol
 * 2024-10-07 (the older result form) or content sent as a bare string, as one text block; content of
 * any other kind as one block the reader describes as left out.
 */
function contentBlocks(result: Record<string, unknown>): readonly unknown[] {
  const content = result.content;
  if (Array.isArray(content)) return content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (content !== undefined) return [content];
  if (!('toolResult' in result)) return [];
  const old = result.toolResult;
  return [{ type: 'text', text: typeof old === 'string' ? old : safeJson(old) }];
}

function cut(text: string, maxChars: number, total: number): string {
  if (text.length <= maxChars) return text;
  return (
    `${headOf(text, maxChars)}\n[output cut: showing the first ${maxChars.toLocaleString('en-US')} of ` +
    `${total.toLocaleString('en-US')} characters the server sent; ask the tool for a narrower part if you need more]`
  );
}

function describeBlock(block: unknown): string {
  if (!isPlainObject(block)) return `[a content block that is ${describe(block)} was left out]`;
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? block.text : '[a text block without text]';
    case 'image':
    case 'audio':
      return `[${block.type}: ${mime(block.mimeType)}, ${size(block.data)} — not shown]`;
    case 'resource_link': {
      const name = typeof block.title === 'string' ? block.title : str(block.name);
      const about = typeof block.description === 'string' ? `: ${block.description}` : '';
      return `[resource link: ${name} <${str(block.uri)}> (${mime(block.mimeType)})${about}]`;
    }
    case 'resource':
      return describeResource(block.resource);
    default:
      return `[a content block of type ${JSON.stringify(String(block.type))} was left out]`;
  }
}

function describeResource(resource: unknown): string {
  if (!isPlainObject(resource)) return '[an embedded resource without contents]';
  const head = `[resource <${str(resource.uri)}> (${mime(resource.mimeType)})]`;
  if (typeof resource.text === 'string') return `${head}\n${resource.text}`;
  return `${head} ${size(resource.blob)} of binary data — not shown`;
}

function size(base64: unknown): string {
  if (typeof base64 !== 'string') return 'no data';
  const bytes = Math.floor((base64.length * 3) / 4);
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

function mime(value: unknown): string {
  return typeof value === 'string' && value !== '' ? value : 'unknown type';
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '?';
}

/** A server's structured value as JSON text, at any depth (a recursive writer would throw past a few thousand levels). */
function safeJson(value: unknown): string {
  return jsonTextOf(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}
