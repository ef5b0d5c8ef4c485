import type { MessageCreateParams, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { RecentMap } from '../../core/recent-map.js';
import { schemaJson } from '../../core/schema-json.js';
import type { AnthropicForm, AnthropicForms } from './anthropic-request.js';

/** The JSON of each of the form's blocks, with a `,` between two, in UTF-8. */
const joinedBlocks = (form: AnthropicForm): Buffer =>
  Buffer.from(form.blocks.map((block) => JSON.stringify(block)).join(','));

/** How a turn opens, first in the list or after another, for each role; and how it closes. */
const TURN_OPENS = {
  user: [Buffer.from('{"role":"user","content":['), Buffer.from(',{"role":"user","content":[')],
  assistant: [
    Buffer.from('{"role":"assistant","content":['),
    Buffer.from(',{"role":"assistant","content":['),
  ],
} as const;
const TURN_CLOSE = Buffer.from(']}');
const COMMA = Buffer.from(',');
const MESSAGES_OPEN = Buffer.from('{"messages":[');
const TOOLS_OPEN = Buffer.from('],"tools":[');

/** A tool's bytes and the name and description they were made with. */
interface KeptTool {
  readonly name: string;
  readonly description: string;
  readonly bytes: Buffer;
}

/** Each tool's kept bytes, by its schema object. */
const toolBytes = new WeakMap<object, KeptTool>();

/**
 * `tool`'s JSON in UTF-8, as `JSON.stringify` writes it. A tool in the form `toAnthropicTool` makes (name,
 * description, input_schema) is written once per schema object while its name and description stay, its
 * schema from the text the runtime made for the tool's first request: the runtime offers the same
 * schema objects turn after turn, where the body's other fields change.
 */
function toolJson(tool: ToolUnion): Buffer {
  const keys = Object.keys(tool);
  const { name, description, input_schema: schema } = tool as unknown as Partial<Record<string, unknown>>;
  if (
    keys.length !== 3 ||
    keys[0] !== 'name' ||
    keys[1] !== 'description' ||
    keys[2] !== 'input_schema' ||
    typeof name !== 'string' ||
    typeof description !== 'string' ||
    typeof schema !== 'object' ||
    schema === null
  )
    return Buffer.from(JSON.stringify(tool));
  const kept = toolBytes.get(schema);
  if (kept !== undefined && kept.name === name && kept.description === description) return kept.bytes;
  const head = `{"name":${JSON.stringify(name)},"description":${JSON.stringify(description)}`;
  const bytes = Buffer.from(`${head},"input_schema":${schemaJson(schema)}}`);
  toolBytes.set(schema, { name, description, bytes });
  return bytes;
}

/** How many parts a conversation's kept turns may be in before they are joined into one. */
const MAX_KEPT_PARTS = 32;

/**
 * The turns a conversation's last body closed: its forms up to and including the first of its last
 * turn (`last`, the one a later message may still join), and the closed turns' bytes in a few parts.
 */
interface ClosedTurns {
  readonly forms: readonly AnthropicForm[];
  readonly last: number;
  readonly turns: number;
  readonly parts: readonly Buffer[];
}

/** How many conversations' turns each cache keeps: a runtime keeps as many sessions' conversations. */
const KEPT_CONVERSATIONS = 64;

/**
 * Each cache's conversations as their last bodies closed them, kept by their first form, for the
 * conversations sent most recently (a caller that sends a sliding window starts a new one with each
 * request). Only forms the cache made are kept: those are never changed once made, so the same forms in
 * the same order group into the same turns and the same bytes.
 */
const closedByCache = new WeakMap<AnthropicForms, RecentMap<AnthropicForm, ClosedTurns>>();

/** The closed turns `forms` still begins with, if the cache kept them. */
function keptTurns(forms: readonly AnthropicForm[], cache: AnthropicForms): ClosedTurns | undefined {
  const first = forms[0];
  const kept = first === undefined ? undefined : closedByCache.get(cache)?.get(first);
  if (kept === undefined || forms.length <= kept.last) return undefined;
  for (let i = 0; i <= kept.last; i += 1) if (forms[i] !== kept.forms[i]) return undefined;
  return kept;
}

/**
 * The request body as the UTF-8 JSON the API reads, each message's blocks serialized once and kept in
 * `cache` (`forms` are the request's messages as `anthropicMessageForms` made them from it): a long
 * session's history is not serialized again on every request, and the turns its last request closed
 * come as the few parts they were kept in. The same JSON the SDK would write, with `messages` first;
 * sending bytes also keeps one character past Latin-1 in the system prompt from making the whole body a
 * two-byte string. Consecutive messages of one role share a turn, and a message without blocks is left
 * out, as `groupTurns` groups them. The tools follow the messages, each written once while it stays the
 * same.
 */
export function anthropicBodyBytes(
  body: MessageCreateParams,
  forms: readonly AnthropicForm[],
  cache: AnthropicForms,
): Buffer {
  const { messages: _turns, tools, ...rest } = body;
  const kept = keptTurns(forms, cache);
  let closed = kept ? kept.parts.slice() : [];
  let turns = kept?.turns ?? 0;
  // The turn being written: its role, where it began in `forms`, and its parts so far.
  let open: { role: AnthropicForm['role']; at: number; parts: Buffer[] } | undefined;
  let made = true;
  for (let i = kept?.last ?? 0; i < forms.length; i += 1) {
    const form = forms[i] as AnthropicForm;
    // A form the cache did not make may be changed before it comes again (one without blocks too).
    made &&= cache.made(form);
    if (form.blocks.length === 0) continue;
    const bytes = cache.bytes(form, joinedBlocks);
    if (open?.role === form.role) {
      open.parts.push(COMMA, bytes);
      continue;
    }
    if (open !== undefined) {
      closed.push(...open.parts, TURN_CLOSE);
      turns += 1;
    }
    open = { role: form.role, at: i, parts: [TURN_OPENS[form.role][turns === 0 ? 0 : 1], bytes] };
  }
  if (closed.length > MAX_KEPT_PARTS) closed = [Buffer.concat(closed)];
  const first = forms[0];
  if (first !== undefined && open !== undefined) {
    let byFirst = closedByCache.get(cache);
    if (byFirst === undefined) {
      byFirst = new RecentMap<AnthropicForm, ClosedTurns>(KEPT_CONVERSATIONS);
      closedByCache.set(cache, byFirst);
    }
    // The kept forms before `last` were the cache's own when they were kept.
    if (made) byFirst.set(first, { forms: forms.slice(0, open.at + 1), last: open.at, turns, parts: closed });
    else byFirst.delete(first);
  }
  const parts = [MESSAGES_OPEN, ...closed];
  if (open !== undefined) parts.push(...open.parts, TURN_CLOSE);
  if (tools !== undefined) {
    parts.push(TOOLS_OPEN);
    tools.forEach((tool, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(toolJson(tool));
    });
  }
  // `rest` always holds the model, so its JSON is `{` and at least one key
  parts.push(Buffer.from(`],${JSON.stringify(rest).slice(1)}`));
  return Buffer.concat(parts);
}
