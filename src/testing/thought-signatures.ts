import { isPlainObject } from '../core/json.js';
import type { GeminiFailure } from './gemini-rules.js';

/**
 * Gemini 3's thought signatures, as its OpenAI-compatible endpoint hands them out: each tool call it
 * makes carries `extra_content.google.thought_signature`, and a later request that replays the call
 * without that same signature is refused.
 */
export class ThoughtSignatures {
  private readonly issued = new Map<string, string>();

  /** The signature of call `id`, remembered for the requests that replay it. */
  issue(id: string): { google: { thought_signature: string } } {
    const signature = `sig_${Buffer.from(id).toString('base64url')}`;
    this.issued.set(id, signature);
    return { google: { thought_signature: signature } };
  }

  /** The refusal of a request that replays one of our calls without its signature, if it does. */
  missing(body: Record<string, unknown>): GeminiFailure | undefined {
    const messages = Array.isArray(body['messages']) ? body['messages'] : [];
    for (const [n, message] of messages.entries()) {
      const calls =
        isPlainObject(message) && Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
      for (const call of calls) {
        if (!isPlainObject(call) || typeof call['id'] !== 'string') continue;
        const wanted = this.issued.get(call['id']);
        if (wanted === undefined) continue;
        const extra = call['extra_content'];
        const google = isPlainObject(extra) ? extra['google'] : undefined;
        const given = isPlainObject(google) ? google['thought_signature'] : undefined;
        if (given !== wanted) {
          return {
            message: `Function call is missing a thought_signature in functionCall parts (messages[${n}], call ${call['id']}).`,
          };
        }
      }
    }
    return undefined;
  }
}
