import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../src/core/events.js';
import { collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The `model-retry` events of a turn. */
function retries(events: readonly RuntimeEvent[]): Extract<RuntimeEvent, { type: 'model-retry' }>[] {
  return events.filter((e): e is Extract<RuntimeEvent, { type: 'model-retry' }> => e.type === 'model-retry');
}

describe('a model call that toolseam retries', () => {
  it('tells the host before each wait what failed, the attempt to come and the wait (openai)', async () => {
    h = await startHarness({
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 20 },
      script: [{ error: { status: 429, retryAfter: 0 } }, { error: { status: 503 } }, { text: 'Here now.' }],
    });
    const events = await collect(await (await h.runtime.session('s')).send('hello'));
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'Here now.' });
    const [limited, busy] = retries(events);
    expect(limited).toEqual({
      type: 'model-retry',
      provider: 'openai-compatible',
      status: 429,
      reason: 'rate limited',
      attempt: 2,
      maxAttempts: 3,
      waitMs: 0,
    });
    expect(busy).toMatchObject({ status: 503, reason: 'server error', attempt: 3, maxAttempts: 3 });
    expect(busy?.waitMs).toBeGreaterThan(0);
    expect(busy?.waitMs).toBeLessThanOrEqual(20);
    // the notices come before the answer, while the person is waiting for it
    const types = events.map((e) => e.type);
    expect(types.lastIndexOf('model-retry')).toBeLessThan(types.indexOf('text-delta'));
  });

  it('names an Anthropic 529 as overloaded, and a turn without a retry tells of none', async () => {
    h = await startHarness({
      family: 'anthropic',
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 20 },
      script: [{ error: { status: 529, message: 'Overloaded' } }, { text: 'Fine.' }, { text: 'Again.' }],
    });
    const session = await h.runtime.session('s');
    const first = await collect(await session.send('hello'));
    expect(retries(first)).toMatchObject([
      { provider: 'anthropic', status: 529, reason: 'overloaded', attempt: 2, maxAttempts: 2 },
    ]);
    const second = await collect(await session.send('again'));
    expect(turnEnd(second)).toMatchObject({ status: 'done', message: 'Again.' });
    expect(retries(second)).toEqual([]);
  });

  it("once it gives up, tells the person one wait: the provider's own, not a guess beside it", async () => {
    h = await startHarness({
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 20 },
      script: [
        { error: { status: 429, retryAfter: 0, message: 'Slow down.' } },
        { error: { status: 429, retryAfter: 0, message: 'Slow down.' } },
      ],
    });
    const end = turnEnd(await collect(await (await h.runtime.session('s')).send('hello')));
    expect(end).toMatchObject({ status: 'failed' });
    expect(end.message).toBe(
      "The model provider openai-compatible answered HTTP 429: Slow down. Tried 2 times; the rate limit had not lifted: openai-compatible asks to wait 1 s, then send the message again (if it keeps happening, check the account's limits).",
    );
  });
});
