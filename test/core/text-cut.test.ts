import { describe, expect, it } from 'vitest';
import { headOf, wholeEnd, wholeStart } from '../../src/core/text-cut.js';
import { boundResult } from '../../src/runtime/calls/bound-result.js';
import { BoundedOutput } from '../../src/tools/builtin/bounded-output.js';
import { openTestStore } from '../store/store-fixtures.js';

/** True when `text` holds no half of a surrogate pair on its own. */
const wellFormed = (text: string) =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe('cutting text without splitting a character', () => {
  it('steps back before a pair, or past it, and leaves other cuts alone', () => {
    const text = 'ab😀cd';
    expect(wholeEnd(text, 3)).toBe(2);
    expect(wholeEnd(text, 4)).toBe(4);
    expect(wholeEnd(text, 2)).toBe(2);
    expect(wholeStart(text, 3)).toBe(4);
    expect(wholeStart(text, 2)).toBe(2);
    expect(headOf(text, 3)).toBe('ab');
    expect(headOf(text, 99)).toBe(text);
  });

  it('a cut tool result, a bounded command output and a session title stay well-formed text', async () => {
    const emoji = 'x'.repeat(999) + '😀'.repeat(50);
    expect(wellFormed(boundResult(emoji, 1000))).toBe(true);
    const out = new BoundedOutput(new Map(), 101, 101);
    out.push('😀'.repeat(500));
    const { text, cut } = out.finish();
    expect(cut).toBe(true);
    expect(wellFormed(text)).toBe(true);
    const store = openTestStore();
    const session = await store.createSession();
    await store.startTurn({
      sessionId: session.id,
      userText: `${'y'.repeat(59)}😀 and the rest of a long message`,
    });
    const title = (await store.getSession(session.id))?.title ?? '';
    expect(wellFormed(title)).toBe(true);
    expect(title).toBe(`${'y'.repeat(59)}…`);
  });
});
