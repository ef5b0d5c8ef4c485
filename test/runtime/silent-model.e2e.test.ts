import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../src/core/events.js';
import { collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const families = ['openai', 'anthropic', 'bedrock'] as const;

function ofType<T extends RuntimeEvent['type']>(events: readonly RuntimeEvent[], type: T) {
  return events.filter((e): e is Extract<RuntimeEvent, { type: T }> => e.type === type);
}

describe('a model that stays silent before it answers', () => {
  for (const family of families) {
    it(`is reported as still waited for, and the notices stop once the answer starts (${family})`, async () => {
      h = await startHarness({ family, waitingNoticeMs: 150, script: [{ text: 'Slowly.', delayMs: 2_000 }] });
      const events = await collect(await (await h.runtime.session('s')).send('hello'));
      expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'Slowly.' });
      const waiting = ofType(events, 'model-waiting');
      expect(waiting.length).toBeGreaterThanOrEqual(1);
      expect(waiting[0]?.waitedMs).toBeGreaterThanOrEqual(150);
      const types = events.map((e) => e.type);
      expect(types.lastIndexOf('model-waiting')).toBeLessThan(types.indexOf('text-delta'));
    });
  }

  it('a model that answers at once is not reported as waited for', async () => {
    h = await startHarness({ waitingNoticeMs: 5_000, script: [{ text: 'At once.' }] });
    const events = await collect(await (await h.runtime.session('s')).send('hello'));
    expect(ofType(events, 'model-waiting')).toEqual([]);
  });
});

describe('the first-byte deadline', () => {
  for (const family of families) {
    it(`gives up an attempt whose answer has not started in time and tries again, as after a lost connection (${family})`, async () => {
      h = await startHarness({
        family,
        modelSettings: { firstByteTimeoutMs: 400 },
        retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 10 },
        script: [{ text: 'Too late.', delayMs: 10_000 }, { text: 'On time.' }],
      });
      const events = await collect(await (await h.runtime.session('s')).send('hello'));
      expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'On time.' });
      expect(ofType(events, 'model-retry')).toMatchObject([
        { reason: 'the answer did not start in time', attempt: 2, maxAttempts: 2 },
      ]);
      expect(h.standIn.requests).toHaveLength(2);
    });
  }

  it('says so, with what to do, once its retries are spent (anthropic, not streamed)', async () => {
    h = await startHarness({
      family: 'anthropic',
      modelSettings: { firstByteTimeoutMs: 300, stream: false },
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 10 },
      script: [
        { text: 'Too late.', delayMs: 10_000 },
        { text: 'Late again.', delayMs: 10_000 },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('hello'));
    const end = turnEnd(events);
    expect(end).toMatchObject({ status: 'failed', errorCode: 'first_byte_timeout' });
    expect(end.message).toContain(
      'anthropic did not start answering within 300 ms (the first-byte deadline).',
    );
    expect(end.message).toContain('Tried 2 times; send the message again, or give the model longer');
    expect(end.message).toContain('--first-byte-timeout');
  });

  it('does not cut an answer that started and then stalls: its deadline is for the start only', async () => {
    h = await startHarness({
      modelSettings: { firstByteTimeoutMs: 300 },
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 10 },
      script: [{ text: 'The first part', cutOff: 'hold' }],
    });
    const controller = new AbortController();
    const stop = setTimeout(() => controller.abort(), 1_500);
    const events = await collect(
      await (await h.runtime.session('s')).send('hello', { signal: controller.signal }),
    );
    clearTimeout(stop);
    // stopped by the person well past the deadline, never given up and asked again by toolseam
    expect(turnEnd(events)).toMatchObject({ status: 'stopped' });
    expect(ofType(events, 'model-retry')).toEqual([]);
    expect(
      ofType(events, 'text-delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('The first part');
    expect(h.standIn.requests).toHaveLength(1);
  });
});
