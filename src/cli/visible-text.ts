/**
 * Characters a terminal acts on instead of showing: C0 controls (escape, carriage return, backspace…), DEL,
 * C1 controls (U+009B starts a control sequence as ESC [ does), line and paragraph separators, and the
 * bidirectional embeddings, overrides and isolates that reorder what follows them.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The same, less the line feed and tab a multi-line text keeps. */
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escaped(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `text` (a tool name, a reason, a title: anything toolseam did not write itself) safe to print on one
 * line: every control character shown as its escape (`\u001b`, `\u000a`), so it cannot move the cursor,
 * erase a line, start a line of its own or change colours.
 */
export function visible(text: string): string {
  return text.replace(CONTROLS, escaped);
}

/**
 * `text` that may run over several lines (an error body, a page of tools) safe to print: its line breaks
 * (`\r\n` read as one) and tabs kept, every other control character shown as its escape.
 */
export function visibleLines(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROLS_BUT_LINES, escaped);
}
