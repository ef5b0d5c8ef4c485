import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../src/runtime/runtime.js';
import { leafSlot } from '../../../src/runtime/subagents/leaf-slots.js';

const settled = async <T>(p: Promise<T>): Promise<boolean> => {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await new Promise((r) => setTimeout(r, 10));
  return done;
};

describe('leaf slots shared by the batches of one runtime', () => {
  it('lets a waiter with room in, even behind one whose own limit is reached', async () => {
    const runtime = {} as Runtime;
    const signal = new AbortController().signal;
    const first = await leafSlot(runtime, 1, signal);
    const narrow = leafSlot(runtime, 1, signal);
    const wide = [await leafSlot(runtime, 4, signal), await leafSlot(runtime, 4, signal)];
    await leafSlot(runtime, 4, signal);
    const fourth = leafSlot(runtime, 4, signal);
    expect(await settled(fourth)).toBe(false);
    wide[0]?.();
    expect(await settled(fourth)).toBe(true);
    expect(await settled(narrow)).toBe(false);
    first?.();
    wide[1]?.();
    expect(await settled(narrow)).toBe(false);
  });

  it('gives a freed slot to the first waiter in line, and none when the waiter is stopped', async () => {
    const runtime = {} as Runtime;
    const signal = new AbortController().signal;
    const held = await leafSlot(runtime, 1, signal);
    const stop = new AbortController();
    const stopped = leafSlot(runtime, 1, stop.signal);
    const later = leafSlot(runtime, 1, signal);
    stop.abort();
    expect(await stopped).toBeUndefined();
    held?.();
    expect(typeof (await later)).toBe('function');
  });
});
