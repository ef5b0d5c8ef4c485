/** Up to this many numbers are sorted by insertion: no comparator call per step, and no allocation. */
const INSERTION_SORT_MAX = 64;

/** Sorts whole numbers ascending in place (a block's places: a few dozen at most, usually). */
export function sortAscending(values: number[]): number[] {
  if (values.length > INSERTION_SORT_MAX) return values.sort((a, b) => a - b);
  for (let i = 1; i < values.length; i += 1) {
    const v = values[i] as number;
    let j = i - 1;
    while (j >= 0 && (values[j] as number) > v) {
      values[j + 1] = values[j] as number;
      j -= 1;
    }
    values[j + 1] = v;
  }
  return values;
}
