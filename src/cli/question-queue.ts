import type { Interface } from 'node:readline/promises';

/**
 * Puts questions to the person one at a time on one readline interface. Readline ignores a second
 * question while one is pending, so every question in the chat goes through here; a question whose
 * signal aborts is taken off the screen (or never shown), and the next one gets the next line typed.
 * Lines that arrive while no question is pending (piped input, type-ahead, two answers in one chunk)
 * wait here for the next question instead of being lost.
 */
export class QuestionQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly current = new Set<AbortController>();
  private readonly waiting: string[] = [];

  /**
   * `echo` shows a question answered from a line typed before it, with that answer (the chat's stderr);
   * `pasted` tells which lines a paste ended, for questions answered whole.
   */
  constructor(
    private readonly rl: Interface,
    private readonly echo?: NodeJS.WritableStream,
    private readonly pasted?: { take(line: string): boolean },
  ) {
    // Readline hands a line to a pending question; it emits 'line' only when none is pending.
    rl.on('line', (line) => this.waiting.push(line));
    // Node 20 leaves a pending question unsettled when the input closes; end it so the queue moves on.
    rl.once('close', () => {
      this.closed = true;
      for (const controller of this.current) controller.abort();
    });
  }

  /**
   * Asks `query` once every earlier question is done, calling `before` just before it is shown;
   * a line already typed answers it at once. While `again` says a line is no answer (it tells the
   * person why), the question is asked again before any other. With `whole`, an answer pasted over
   * several lines is those lines joined, not its first line. Undefined when `signal` aborted, the
   * input closed with no line left for it, or `before` threw.
   */
  ask(
    query: string,
    options: {
      signal?: AbortSignal | undefined;
      before?: () => void;
      fresh?: boolean;
      again?: (line: string) => boolean;
      whole?: boolean;
    } = {},
  ): Promise<string | undefined> {
    const asked = this.tail.then(async () => {
      // On a terminal, a line typed before the question showed was not meant for it: an approval
      // must never be answered by a "y" typed while the model was still writing.
      if (options.fresh === true && this.rl.terminal) this.waiting.length = 0;
      let line = await this.askNow(query, options.signal, options.before);
      while (line !== undefined && options.again?.(line) === true) {
        line = await this.askNow(query, options.signal, undefined);
      }
      return options.whole === true && line !== undefined ? this.restOfPaste(line, options.signal) : line;
    });
    // One failed question must not fail every later one (the chat's next-message prompt among them).
    this.tail = asked.catch(() => undefined);
    return asked;
  }

  /**
   * `first` and the lines after it while each was ended inside a paste (the terminal already shows them),
   * as one text; the line the person ends after the paste is its last (dropped when empty).
   */
  private async restOfPaste(first: string, signal: AbortSignal | undefined): Promise<string> {
    const lines = [first];
    while (this.pasted?.take(lines[lines.length - 1] as string)) {
      const next = await this.askNow('… ', signal, undefined, true);
      if (next === undefined) break;
      lines.push(next);
    }
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    return lines.join('\n');
  }

  /** One line for `query`; `continued` reads on in a paste (the terminal shows its lines already). */
  private async askNow(
    query: string,
    signal: AbortSignal | undefined,
    before: (() => void) | undefined,
    continued = false,
  ): Promise<string | undefined> {
    if (signal?.aborted) return undefined;
    if (this.waiting.length > 0) {
      try {
        before?.();
      } catch {
        return undefined;
      }
      const line = this.waiting.shift() as string;
      if (!continued) this.echo?.write(`${query}${line}\n`);
      return line;
    }
    if (this.closed) return undefined;
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    signal?.addEventListener('abort', abort, { once: true });
    this.current.add(controller);
    try {
      before?.();
      const answer = this.rl.question(query, { signal: controller.signal });
      // showing the question put the cursor at the start of a paste's unfinished last line: back to its end
      if (continued && this.rl.terminal) this.rl.write(null, { ctrl: true, name: 'e' });
      return await answer;
    } catch {
      return undefined;
    } finally {
      this.current.delete(controller);
      signal?.removeEventListener('abort', abort);
    }
  }
}
