/** Where and why a text is not JSON. `line` and `column` count from 1. */
export interface JsonSyntaxError {
  /** What is wrong, e.g. `expected ',' or '}' after a property value, found '}'`. */
  readonly what: string;
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  /** Up to 16 characters just before the error (line breaks shown as spaces), to find it by eye. */
  readonly after: string;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_][A-Za-z0-9_]{0,19}/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX4 = /[0-9a-fA-F]{4}/y;

class Stop {
  constructor(
    readonly what: string,
    readonly offset: number,
  ) {}
}

/**
 * Finds the first syntax error in `text` read as JSON, saying what was expected and where; undefined when the
 * text is valid JSON. Written as a loop over an explicit stack, so no nesting depth can exhaust the call stack.
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    scan(text);
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    const after = text.slice(Math.max(0, error.offset - 16), error.offset).replace(/[\r\n\t]/g, ' ');
    return { what: error.what, offset: error.offset, ...lineAndColumn(text, error.offset), after };
  }
}

/** Where and why, in words: `what at line L, column C (just after `…`)`. */
export function describeJsonSyntax(error: JsonSyntaxError): string {
  const after = error.after.trim() === '' ? '' : ` (just after \`${error.after}\`)`;
  return `${error.what} at line ${error.line}, column ${error.column}${after}`;
}

/** What the scanner expects next. */
enum Want {
  Value,
  Opened,
  AfterValue,
}

function scan(text: string): void {
  const stack: string[] = [];
  let i = 0;
  let want = Want.Value;
  for (;;) {
    while (i < text.length && isSpace(text[i]!)) i++;
    const top = stack[stack.length - 1];
    if (i >= text.length && top !== undefined) {
      const inside = top === '{' ? "an object (a '}' is missing)" : "a list (a ']' is missing)";
      throw new Stop(`the text ends inside ${inside}`, i);
    }
    if (want === Want.Value) {
      const depth = stack.length;
      i = value(text, i, stack);
      want = stack.length > depth ? Want.Opened : Want.AfterValue;
      continue;
    }
    if (top === undefined) {
      if (i < text.length) throw new Stop(`found ${describeAt(text, i)} after the end of the JSON value`, i);
      return;
    }
    const close = top === '{' ? '}' : ']';
    if (text[i] === close) {
      stack.pop();
      i++;
      want = Want.AfterValue;
    } else if (want === Want.Opened) {
      if (top === '{') i = key(text, i);
      want = Want.Value;
    } else if (text[i] === ',') {
      i++;
      while (i < text.length && isSpace(text[i]!)) i++;
      if (text[i] === close) throw new Stop(`found '${close}' after a comma (remove the trailing comma)`, i);
      if (top === '{') i = key(text, i);
      want = Want.Value;
    } else {
      const what = top === '{' ? 'a property value' : 'a list item';
      throw new Stop(`expected ',' or '${close}' after ${what}, found ${describeAt(text, i)}`, i);
    }
  }
}

/** Reads a property name and its colon; returns the offset after the colon. */
function key(text: string, start: number): number {
  let i = start;
  if (text[i] !== '"')
    throw new Stop(`expected a property name in double quotes, found ${describeAt(text, i)}`, i);
  i = stringEnd(text, i);
  while (i < text.length && isSpace(text[i]!)) i++;
  if (text[i] !== ':') throw new Stop(`expected ':' after a property name, found ${describeAt(text, i)}`, i);
  return i + 1;
}

/** Reads one value (or opens a container, pushing it); returns the offset after what it read. */
function value(text: string, i: number, stack: string[]): number {
  const c = text[i];
  if (c === undefined) throw new Stop('the text ends where a value should be', i);
  if (c === '{' || c === '[') {
    stack.push(c);
    return i + 1;
  }
  if (c === '"') return stringEnd(text, i);
  if (c === '-' || (c >= '0' && c <= '9')) {
    NUMBER.lastIndex = i;
    if (!NUMBER.test(text)) throw new Stop(`${describeAt(text, i)} starts a malformed number`, i);
    const end = NUMBER.lastIndex;
    if (text[i] === '0' || text.startsWith('-0', i)) {
      if (/[0-9]/.test(text[end] ?? ''))
        throw new Stop('a number may not start with a 0 followed by digits', i);
    }
    return end;
  }
  for (const literal of ['true', 'false', 'null']) {
    if (text.startsWith(literal, i)) return i + literal.length;
  }
  throw new Stop(`expected a value, found ${describeAt(text, i)}`, i);
}

/** Reads a string from its opening quote; returns the offset after its closing quote. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) {
      throw new Stop(
        'a raw control character (such as a line break) inside a string; escape it, e.g. \\n',
        i,
      );
    }
    if (c === 0x5c) {
      const e = text[i + 1];
      if (e === 'u') {
        HEX4.lastIndex = i + 2;
        if (!HEX4.test(text)) throw new Stop('a \\u escape needs four hex digits', i);
        i += 6;
        continue;
      }
      if (e === undefined || !ESCAPES.has(e)) throw new Stop(`\\${e ?? ''} is not a JSON escape`, i);
      i += 2;
      continue;
    }
    i++;
  }
  throw new Stop(`the string that starts here never ends (a closing '"' is missing)`, start);
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\n' || c === '\r' || c === '\t';
}

function describeAt(text: string, i: number): string {
  if (i >= text.length) return 'the end of the text';
  WORD.lastIndex = i;
  const word = WORD.exec(text);
  if (word) return `'${word[0]}'`;
  const c = text[i]!;
  return c.charCodeAt(0) < 0x20
    ? `the control character U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`
    : `'${c}'`;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
