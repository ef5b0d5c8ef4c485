/**
 * The deepest nesting of objects and lists toolseam reads in a value a model or a tool sent. No real
 * tool argument or result comes near it, and every recursive walk and `JSON.stringify` stays far below
 * the call stack's limit under it (past a few thousand levels they throw RangeError).
 */
export const MAX_JSON_DEPTH = 100;

/**
 * How deeply `value` nests objects and lists (a scalar is 0, `{}` and `[]` are 1, `{"a": [1]}` is 2),
 * counted without recursion and no further than `stopAt + 1` levels: a value nested 10,000 deep is
 * only walked until it is known to be too deep.
 */
export function jsonDepth(value: unknown, stopAt = Number.POSITIVE_INFINITY): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  const stack: Array<readonly [object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as readonly [object, number];
    if (depth > deepest) {
      deepest = depth;
      if (deepest > stopAt) return deepest;
    }
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** True when `value` nests objects and lists more than `limit` levels deep (default {@link MAX_JSON_DEPTH}). */
export function nestsTooDeep(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  return jsonDepth(value, limit) > limit;
}

/** How a value nested past the limit is described: `more than 100 levels of nested objects and lists (…)`. */
export function tooDeepWords(limit = MAX_JSON_DEPTH): string {
  return `more than ${limit} levels of nested objects and lists (toolseam reads at most ${limit})`;
}
