import { describe, expect, it } from 'vitest';
import { RegexTooSlow, RegexWorker } from '../../../src/tools/builtin/regex-worker.js';

describe('RegexWorker', () => {
  it('answers which lines match, file after file', async () => {
    const worker = new RegexWorker(/b+c$/i);
    try {
      expect(await worker.matchLines(['abc', 'xyz', 'BBC'])).toEqual([
        { index: 0, at: 1 },
        { index: 2, at: 0 },
      ]);
      expect(await worker.matchLines([])).toEqual([]);
    } finally {
      await worker.close();
    }
  });

  it('stops an expression that backtracks without end at its deadline, and stays stopped', async () => {
    const worker = new RegexWorker(/^(a+)+$/, 200);
    const started = Date.now();
    await expect(worker.matchLines([`${'a'.repeat(40)}b`])).rejects.toBeInstanceOf(RegexTooSlow);
    expect(Date.now() - started).toBeLessThan(3000);
    await expect(worker.matchLines(['a'])).rejects.toBeInstanceOf(RegexTooSlow);
    await worker.close();
  });

  it('gives up waiting when the call is stopped', async () => {
    const worker = new RegexWorker(/^(a+)+$/, 10_000);
    const stop = new AbortController();
    const waiting = worker.matchLines([`${'a'.repeat(40)}b`], stop.signal);
    stop.abort(new Error('stopped by the person'));
    await expect(waiting).rejects.toThrow('stopped by the person');
    await worker.close();
  });
});
