import { createInterface } from 'node:readline/promises';
import { PassThrough } from 'node:stream';
import { describe, expect, it, onTestFinished } from 'vitest';
import { QuestionQueue } from '../../src/cli/question-queue.js';

/** A real readline interface over in-memory streams, as the chat builds it over stdin and stderr. */
function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d: Buffer) => {
    shown += d.toString();
  });
  const rl = createInterface({ input, output });
  onTestFinished(() => rl.close());
  const until = async (check: () => boolean): Promise<void> => {
    for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 5));
    expect(check()).toBe(true);
  };
  return { input, rl, questions: new QuestionQueue(rl, output), shown: () => shown, until };
}

describe('QuestionQueue', () => {
  it('a question whose `before` throws ends without an answer, and the next question still gets the next line', async () => {
    const t = terminal();
    const broken = t.questions.ask('broken? ', {
      before: () => {
        throw new Error('cannot describe this approval');
      },
    });
    const next = t.questions.ask('next> ');
    expect(await broken).toBeUndefined();
    await t.until(() => t.shown().endsWith('next> '));
    t.input.write('hello\n');
    expect(await next).toBe('hello');
    expect(t.shown()).not.toContain('broken? ');
  });

  it('two answers arriving in one chunk answer two queued questions in order', async () => {
    const t = terminal();
    const first = t.questions.ask('first? ');
    const second = t.questions.ask('second? ');
    await t.until(() => t.shown().endsWith('first? '));
    t.input.write('one\ntwo\n');
    expect([await first, await second]).toEqual(['one', 'two']);
    expect(t.shown()).toContain('second? two\n');
  });

  it('a line typed before any question is asked answers the next one', async () => {
    const t = terminal();
    t.input.write('typed ahead\n');
    await new Promise((r) => setTimeout(r, 20));
    expect(await t.questions.ask('next> ')).toBe('typed ahead');
  });

  it('lines piped in before the input ends still answer the questions queued for them', async () => {
    const t = terminal();
    const first = t.questions.ask('first? ');
    const second = t.questions.ask('second? ');
    const third = t.questions.ask('third? ');
    t.input.end('y\nn\n');
    expect([await first, await second, await third]).toEqual(['y', 'n', undefined]);
  });

  it('on a terminal, a line typed before an approval showed does not answer it', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const rl = createInterface({ input, output, terminal: true });
    onTestFinished(() => rl.close());
    const questions = new QuestionQueue(rl, output);
    input.write('y\r');
    await new Promise((r) => setTimeout(r, 20));
    const approval = questions.ask('allow? ', { fresh: true });
    await new Promise((r) => setTimeout(r, 20));
    input.write('n\r');
    expect(await approval).toBe('n');
    // Without `fresh` (the next message), a line typed ahead is kept for it.
    input.write('hello\r');
    await new Promise((r) => setTimeout(r, 20));
    expect(await questions.ask('> ')).toBe('hello');
  });
});
