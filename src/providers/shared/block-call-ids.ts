import { createHash } from 'node:crypto';
import type { ChatMessage } from '../../core/model.js';
import { callIdMap } from './call-id-map.js';

/** The ids Anthropic (`tool_use.id`) and Bedrock (`toolUseId`, 1–64 characters) take. */
export const BLOCK_ID = /^[a-zA-Z0-9_-]{1,64}$/;

function derived(id: string, salt: number): string {
  const hash = createHash('sha256')
    .update(salt === 0 ? id : `${id}#${salt}`)
    .digest('hex')
    .slice(0, 16);
  const readable = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 40);
  return `${readable === '' ? 'call' : readable}_${hash}`;
}

/**
 * Tool-call ids as the block wires take them, for one request: an id that fits is kept; any other (from
 * another provider's turns, such as Kimi's `functions.get_weather:0`) gets a stable id derived from it,
 * the same for the call and its result, distinct within the request.
 */
export function blockCallIds(history: readonly ChatMessage[]): (id: string) => string {
  return callIdMap(history, BLOCK_ID, derived);
}
