import type { MessageCreateParams } from '@anthropic-ai/sdk/resources/messages';
import { groupTurns } from '../shared/group-turns.js';
import type { AnthropicForm, AnthropicForms } from './anthropic-request.js';

/** Each of the form's blocks as `,` and its JSON, in UTF-8. */
const listedBlocks = (form: AnthropicForm): Buffer =>
  Buffer.from(form.blocks.map((block) => `,${JSON.stringify(block)}`).join(''));

/**
 * The request body as the UTF-8 JSON the API reads, each message's blocks serialized once and kept in
 * `cache` (`forms` are the request's messages as `anthropicMessageForms` made them from it): a long
 * session's history is not serialized again on every request. The same JSON the SDK would write, with
 * `messages` first; sending bytes also keeps one character past Latin-1 in the system prompt from
 * making the whole body a two-byte string.
 */
export function anthropicBodyBytes(
  body: MessageCreateParams,
  forms: readonly AnthropicForm[],
  cache: AnthropicForms,
): Buffer {
  const { messages: _turns, ...rest } = body;
  const turns = groupTurns(forms, (form) => ({
    role: form.role,
    blocks: form.blocks.length === 0 ? [] : [cache.bytes(form, listedBlocks)],
  }));
  const parts: Buffer[] = [Buffer.from('{"messages":[')];
  turns.forEach((turn, i) => {
    parts.push(Buffer.from(`${i === 0 ? '' : ','}{"role":"${turn.role}","content":[`));
    // each message's blocks start with a `,`: the turn's first one is left out
    turn.blocks.forEach((bytes, j) => {
      parts.push(j === 0 ? bytes.subarray(1) : bytes);
    });
    parts.push(Buffer.from(']}'));
  });
  // `rest` always holds the model, so its JSON is `{` and at least one key
  parts.push(Buffer.from(`],${JSON.stringify(rest).slice(1)}`));
  return Buffer.concat(parts);
}
