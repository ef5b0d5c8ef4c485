import { createHash } from 'node:crypto';
import { jsonTextOf } from '../../core/json-text-of.js';

/**
 * Serializes a JSON value with object keys sorted, so equal values always give equal text. Written
 * without recursion: arguments nested thousands of levels deep are digested, not a RangeError.
 */
export function canonicalJson(value: unknown): string {
  return jsonTextOf(value, { sortKeys: true });
}

/** A digest of one call (tool + arguments): an approval is bound to exactly this value. */
export function callDigest(tool: string, args: unknown): string {
  return createHash('sha256')
    .update(tool)
    .update('\u0000')
    .update(canonicalJson(args))
    .digest('hex')
    .slice(0, 32);
}
