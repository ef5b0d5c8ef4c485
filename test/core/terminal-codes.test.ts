import { describe, expect, it } from 'vitest';
import { withoutTerminalCodes } from '../../src/core/terminal-codes.js';

describe('withoutTerminalCodes', () => {
  it('takes out colours, cursor moves, titles and hyperlinks, keeping the words', () => {
    expect(withoutTerminalCodes('\u001b[1;31mred\u001b[0m and \u001b[38;5;208morange\u001b[m')).toBe(
      'red and orange',
    );
    expect(withoutTerminalCodes('\u001b[2K\u001b[1Gdone')).toBe('done');
    expect(withoutTerminalCodes('\u001b]0;title\u0007text')).toBe('text');
    expect(withoutTerminalCodes('\u001b]8;;https://x.test\u001b\\link\u001b]8;;\u001b\\')).toBe('link');
    expect(withoutTerminalCodes('\u009b31mC1 form\u009b0m')).toBe('C1 form');
    expect(withoutTerminalCodes('\u001b(Bcharset \u001b7saved\u001b8')).toBe('charset saved');
  });

  it('takes out a sequence cut off at the end and stray control characters, keeping tabs and line breaks', () => {
    expect(withoutTerminalCodes('reason\u001b[3')).toBe('reason');
    expect(withoutTerminalCodes('a\tb\nc\r\u0008\u0000d')).toBe('a\tb\ncd');
  });

  it('leaves plain text, brackets included, as it is', () => {
    expect(withoutTerminalCodes('BLOCKED: [weekend] rule ~ 100%')).toBe('BLOCKED: [weekend] rule ~ 100%');
  });
});
