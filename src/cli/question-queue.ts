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

  /** `echo` shows a question answered from a line typed before it, with that answer (the chat's stderr). */
  constructor(
    private readonly rl: Interface,
    private readonly echo?: NodeJS.WritableStream,
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
   * person why), the question is asked again before any other. Undefined when `signal` aborted, the
   * input closed with no line left for it, or `before` threw.
   */
  ask(
    query: string,
    options: {
      signal?: AbortSignal | undefined;
      before?: () => void;
      fresh?: boolean;
      again?: (line: string) => boolean;
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
      return line;
    });
    // One failed question must not fail every later one (the chat's next-message prompt among them).
    this.tail = asked.catch(() => undefined);
    return asked;
  }

  private async askNow(
    query: string,
    signal: AbortSignal | undefined,
    before: (() => void) | undefined,
  ): Promise<string | undefined> {
    if (signal?.aborted) return undefined;
    if (this.waiting.length > 0) {
      try {
        before?.();
      } catch {
        return undefined;
      }
      const line = this.waiting.shift() as string;
      this.echo?.write(`${query}${line}\n`);
      return line;
    }
    if (this.closed) return undefined;
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    signal?.addEventListener('abort', abort, { once: true });
    this.current.add(controller);
    try {
      before?.();
      return await this.rl.question(query, { signal: controller.signal });
    } catch {
      return undefined;
    } finally {
      this.current.delete(controller);
      signal?.removeEventListener('abort', abort);
    }
  }
}
