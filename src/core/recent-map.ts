/**
 * A map that keeps at most `limit` entries, letting the least recently used go first: `get` and `set`
 * make an entry the most recent. For caches whose keys come without end (conversations, sessions).
 */
export class RecentMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`A RecentMap keeps at least one entry, not ${limit}.`);
  }

  /** How many entries are kept. */
  get size(): number {
    return this.entries.size;
  }

  /** The value kept for `key`, now the most recent; undefined when none is. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Map order is insertion order: taking it out and back in makes it the most recent.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Keeps `value` for `key` as the most recent, letting the least recent go past the limit. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as K);
  }

  /** Lets every entry go. */
  clear(): void {
    this.entries.clear();
  }

  /** Lets the entry for `key` go; false when none was kept. */
  delete(key: K): boolean {
    return this.entries.delete(key);
  }
}
