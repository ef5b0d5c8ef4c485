import { createHash } from 'node:crypto';

/** Serializes a JSON value with object keys sorted, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
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
