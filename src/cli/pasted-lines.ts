import type { Interface } from 'node:readline/promises';

/** Asks a terminal to mark pasted text (bracketed paste), and to stop again. */
const PASTE_ON = '\u001b[?2004h';
const PASTE_OFF = '\u001b[?2004l';

interface Key {
  readonly name?: string;
}

/**
 * Which lines typed at a terminal were ended by a line break inside a paste, so that a message pasted
 * over several lines stays one message instead of one per line. The terminal marks a paste (bracketed
 * paste mode, on while this watches) and readline reports the marks as `paste-start` / `paste-end` keys;
 * this listens before readline does, so it sees each line's text just before readline hands it on.
 */
export class PastedLines {
  private pasting = false;
  private afterReturn = false;
  private readonly ended = new Map<string, number>();
  private readonly leave = (): void => {
    this.output.write(PASTE_OFF);
  };

  constructor(
    private readonly input: NodeJS.EventEmitter,
    private readonly output: NodeJS.WritableStream,
    private readonly rl: Interface,
  ) {
    input.prependListener('keypress', this.onKey);
    output.write(PASTE_ON);
    // the terminal must not be left marking pastes for the shell, however the process ends
    process.once('exit', this.leave);
  }

  /** True (once per line ended so) when `line` was ended inside a paste: more of the same text follows. */
  take(line: string): boolean {
    const count = this.ended.get(line) ?? 0;
    if (count === 0) return false;
    if (count === 1) this.ended.delete(line);
    else this.ended.set(line, count - 1);
    return true;
  }

  /** Stops watching and turns the terminal's paste marks off. */
  close(): void {
    this.input.off('keypress', this.onKey);
    process.off('exit', this.leave);
    this.leave();
  }

  private readonly onKey = (_text: unknown, key: Key | undefined): void => {
    const name = key?.name;
    if (name === 'paste-start') {
      // a line an earlier paste ended that nobody asked for whole (an approval's answer) is not carried on
      this.ended.clear();
      this.pasting = true;
    }
    if (name === 'paste-end') this.pasting = false;
    // readline ends a line at a return, or at a line feed that does not follow one (CR LF is one break)
    const ends = name === 'return' || (name === 'enter' && !this.afterReturn);
    this.afterReturn = name === 'return';
    if (ends && this.pasting) this.ended.set(this.rl.line, (this.ended.get(this.rl.line) ?? 0) + 1);
  };
}
