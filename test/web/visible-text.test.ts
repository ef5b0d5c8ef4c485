import { describe, expect, it } from 'vitest';
import { visibleJson, visibleText } from '../../web/src/visible-text.js';

describe('visibleText', () => {
  it('shows every bidi control as its code point', () => {
    const controls = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C';
    const shown = visibleText(`a${controls}b`);
    expect(shown).toBe(
      'a⟨U+202A⟩⟨U+202B⟩⟨U+202C⟩⟨U+202D⟩⟨U+202E⟩⟨U+2066⟩⟨U+2067⟩⟨U+2068⟩⟨U+2069⟩⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩b',
    );
  });

  it('turns a reordering trick into text that reads as it is stored', () => {
    expect(visibleText('invoice\u202Etxt.exe')).toBe('invoice⟨U+202E⟩txt.exe');
  });

  it('keeps newlines, tabs and ordinary text (markup stays text)', () => {
    const text = 'line one\n\tline two <img src=x onerror=alert(1)> é 日本';
    expect(visibleText(text)).toBe(text);
  });

  it('shows control characters', () => {
    expect(visibleText('bell\u0007 esc\u001b[31m')).toBe('bell⟨U+0007⟩ esc⟨U+001B⟩[31m');
  });
});

describe('visibleJson', () => {
  it('indents a value and makes its hidden characters visible', () => {
    expect(visibleJson({ path: 'a\u202Eb' })).toBe('{\n  "path": "a⟨U+202E⟩b"\n}');
  });

  it('is empty for no value', () => {
    expect(visibleJson(undefined)).toBe('');
  });
});
