import { describe, expect, it } from 'vitest';
import { visible, visibleLines } from '../../src/cli/visible-text.js';

describe('text a terminal would act on is shown, not acted on', () => {
  it('one line: every control character as its escape, line breaks included', () => {
    expect(visible('a\u001b[2Kb\rc\nd\te\u007f\u009b31m\u202eevil')).toBe(
      'a\\u001b[2Kb\\u000dc\\u000ad\\u0009e\\u007f\\u009b31m\\u202eevil',
    );
    expect(visible('plain text, ünïcode and emoji 🙂')).toBe('plain text, ünïcode and emoji 🙂');
  });

  it('several lines: line breaks and tabs kept, \\r\\n read as one, the rest shown as escapes', () => {
    expect(visibleLines('first\r\n\tsecond\u001b[1A\rthird\n')).toBe(
      'first\n\tsecond\\u001b[1A\\u000dthird\n',
    );
  });
});
