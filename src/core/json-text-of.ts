/** Options of {@link jsonTextOf}. */
export interface JsonTextOptions {
  /** Write object keys sorted, so equal values always give equal text (a digest's input). */
  readonly sortKeys?: boolean;
}

type Frame =
  | { readonly list: readonly unknown[]; at: number }
  | {
      readonly object: Readonly<Record<string, unknown>>;
      readonly keys: readonly string[];
      at: number;
      wrote: boolean;
    };

/** A value `JSON.stringify` leaves out of an object (and writes as null in a list). */
function unwritable(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/**
 * `value` as JSON text, as `JSON.stringify` writes it for plain JSON data (no `toJSON`, no spacing), but
 * as a loop over an explicit stack: any nesting depth is written, where `JSON.stringify` and a
 * recursive walk throw RangeError past a few thousand levels. A value that is not JSON data at all (a
 * function, undefined) gives `null`.
 */
export function jsonTextOf(value: unknown, options: JsonTextOptions = {}): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = (item: unknown): void => {
    if (item === null || typeof item !== 'object') {
      out.push(unwritable(item) ? 'null' : (JSON.stringify(item) ?? 'null'));
      return;
    }
    if (Array.isArray(item)) {
      out.push('[');
      stack.push({ list: item, at: 0 });
      return;
    }
    const keys = Object.keys(item);
    if (options.sortKeys) keys.sort();
    out.push('{');
    stack.push({ object: item as Record<string, unknown>, keys, at: 0, wrote: false });
  };
  open(value);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if ('list' in frame) {
      if (frame.at >= frame.list.length) {
        out.push(']');
        stack.pop();
        continue;
      }
      if (frame.at > 0) out.push(',');
      open(frame.list[frame.at]);
      frame.at += 1;
      continue;
    }
    if (frame.at >= frame.keys.length) {
      out.push('}');
      stack.pop();
      continue;
    }
    const key = frame.keys[frame.at] as string;
    frame.at += 1;
    const item = frame.object[key];
    if (unwritable(item)) continue;
    out.push(`${frame.wrote ? ',' : ''}${JSON.stringify(key)}:`);
    frame.wrote = true;
    open(item);
  }
  return out.join('');
}
