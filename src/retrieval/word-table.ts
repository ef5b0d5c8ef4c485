/**
 * A hash table from lowercase words to integers that can be probed with a span of a larger text
 * (read lowercase) as well as with a string. Building an index looks up hundreds of thousands of
 * words; probing by span finds a known word without first cutting it out as a new string.
 */
export class WordTable {
  private keys: (string | undefined)[] = new Array(1024);
  private hashes = new Int32Array(1024);
  private values = new Int32Array(1024);
  private count = 0;

  /** Number of words stored. */
  get size(): number {
    return this.count;
  }

  /** The value of the word `text[start, end)` read lowercase (ASCII letters); undefined when absent. */
  getSpan(text: string, start: number, end: number): number | undefined {
    const h = hashSpan(text, start, end);
    const mask = this.hashes.length - 1;
    const len = end - start;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const key = this.keys[i];
      if (key === undefined) return undefined;
      if (this.hashes[i] === h && key.length === len && sameSpan(key, text, start)) return this.values[i];
    }
  }

  /** The value stored for a lowercase word; undefined when absent. */
  get(word: string): number | undefined {
    const h = hashSpan(word, 0, word.length);
    const mask = this.hashes.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const key = this.keys[i];
      if (key === undefined) return undefined;
      if (this.hashes[i] === h && key === word) return this.values[i];
    }
  }

  /** Stores a value for a lowercase word (replacing any). */
  set(word: string, value: number): void {
    if ((this.count + 1) * 2 > this.hashes.length) this.grow();
    const h = hashSpan(word, 0, word.length);
    const mask = this.hashes.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const key = this.keys[i];
      if (key === undefined) {
        this.keys[i] = word;
        this.hashes[i] = h;
        this.values[i] = value;
        this.count += 1;
        return;
      }
      if (this.hashes[i] === h && key === word) {
        this.values[i] = value;
        return;
      }
    }
  }

  /** Makes room for `n` words in all without growing again. */
  reserve(n: number): void {
    let size = this.hashes.length;
    while (n * 2 > size) size *= 2;
    if (size > this.hashes.length) this.grow(size);
  }

  private grow(size = this.hashes.length * 2): void {
    const { keys, hashes, values } = this;
    this.keys = new Array(size);
    this.hashes = new Int32Array(size);
    this.values = new Int32Array(size);
    const mask = size - 1;
    for (let j = 0; j < keys.length; j += 1) {
      const key = keys[j];
      if (key === undefined) continue;
      let i = (hashes[j] as number) & mask;
      while (this.keys[i] !== undefined) i = (i + 1) & mask;
      this.keys[i] = key;
      this.hashes[i] = hashes[j] as number;
      this.values[i] = values[j] as number;
    }
  }
}

/** FNV-1a over the characters of `text[start, end)`, ASCII capitals read as lowercase. */
function hashSpan(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i += 1) {
    let c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return h;
}

/** True when `key` equals the span of `text` at `start` (of the key's length) read lowercase. */
function sameSpan(key: string, text: string, start: number): boolean {
  for (let i = 0; i < key.length; i += 1) {
    let c = text.charCodeAt(start + i);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== key.charCodeAt(i)) return false;
  }
  return true;
}
