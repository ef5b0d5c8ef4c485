// Characters that change how text around them is ordered or shown without being seen themselves: the
// bidirectional embeddings, overrides and isolates, the direction marks, and control characters. Text
// a model, a tool or an MCP server wrote shows each of them as its code point instead, so what a person
// reads is what is there (a right-to-left override cannot turn `exe.txt` into `txt.exe`).
const HIDDEN =
  /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** `text` with every bidi control and control character shown as ⟨U+XXXX⟩ (tabs and newlines stay). */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** A JSON value as indented text to read (never markup), with hidden characters made visible. */
export function visibleJson(value: unknown): string {
  if (value === undefined) return '';
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return visibleText(text);
}
