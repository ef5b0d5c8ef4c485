import { wholeEnd, wholeStart } from '../../core/text-cut.js';
import { clearOfSecrets, redactable, redactSecrets, secretSpans } from '../redact-secrets.js';

/** What a command printed, as the model may read it. */
export interface BoundedText {
  readonly text: string;
  /** How many characters were printed in all. */
  readonly total: number;
  /** True when the middle was left out. */
  readonly cut: boolean;
}

/**
 * Collects a command's output in bounded memory: all of it while it is short, else its first `headChars` and
 * last `tailChars` characters. Stored secret values are hidden on the way out, including where a cut would
 * have left part of one showing: each kept end holds a margin of the longest secret's length beyond what is
 * shown, so a value crossing a cut is either wholly kept and hidden or wholly left out.
 */
export class BoundedOutput {
  private head = '';
  private tail = '';
  private total = 0;
  private overflowed = false;
  private readonly margin: number;

  constructor(
    private readonly secrets: ReadonlyMap<string, string>,
    private readonly headChars = 10_000,
    private readonly tailChars = 10_000,
  ) {
    this.margin = Math.max(1, ...redactable(secrets).map(([, value]) => value.length));
  }

  /** Adds printed text. */
  push(text: string): void {
    this.total += text.length;
    if (!this.overflowed) {
      this.head += text;
      if (this.head.length <= this.headChars + this.tailChars + 2 * this.margin) return;
      const keep = this.headChars + this.margin;
      this.tail = this.head.slice(keep);
      this.head = this.head.slice(0, keep);
      this.overflowed = true;
    } else this.tail += text;
    const keepTail = this.tailChars + this.margin;
    if (this.tail.length > 2 * keepTail) this.tail = this.tail.slice(-keepTail);
  }

  /** The output with secrets hidden and, when it was long, its middle left out (saying how much). */
  finish(): BoundedText {
    if (!this.overflowed)
      return { text: redactSecrets(this.head, this.secrets), total: this.total, cut: false };
    const end = clearOfSecrets(secretSpans(this.head, this.secrets), this.headChars, 'back');
    const tailStart = Math.max(0, this.tail.length - this.tailChars);
    const start = clearOfSecrets(secretSpans(this.tail, this.secrets), tailStart, 'on');
    const left = this.total - end - (this.tail.length - start);
    const text =
      redactSecrets(this.head.slice(0, wholeEnd(this.head, end)), this.secrets) +
      `\n[… ${left.toLocaleString('en-US')} characters of output left out …]\n` +
      redactSecrets(this.tail.slice(wholeStart(this.tail, start)), this.secrets);
    return { text, total: this.total, cut: true };
  }
}
