import type { ChatMessage } from '../../core/model.js';
import { callIdMap } from '../shared/call-id-map.js';

const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 9 letters and digits from `text` (two 32-bit FNV-1a hashes, 54 bits of them used). */
function nineFrom(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  let n = (BigInt(a >>> 0) << 22n) | BigInt((b >>> 0) & 0x3fffff);
  let out = '';
  for (let i = 0; i < 9; i += 1) {
    out += DIGITS[Number(n % 62n)];
    n /= 62n;
  }
  return out;
}

/**
 * Tool-call ids as Mistral takes them (exactly 9 letters and digits), for one request: an id that
 * already fits is kept; any other (from another provider's turns, or written by toolseam) gets a
 * stable 9-character id of its own, the same for the call and its result, distinct within the request.
 */
export function shortCallIds(history: readonly ChatMessage[]): (id: string) => string {
  return callIdMap(history, MISTRAL_ID, (id, salt) => nineFrom(salt === 0 ? id : `${id}#${salt}`));
}
