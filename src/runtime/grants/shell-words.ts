/** One word of a plain shell command, read as bash reads it. */
export interface ShellWord {
  /** The word bash hands the program: quotes and escapes removed, expansions left as written. */
  readonly text: string;
  /** True when bash passes it on exactly as `text` (nothing in it is expanded: no `$`, glob, `~`, brace or `!`). */
  readonly literal: boolean;
  /** True for a leading `NAME=value`: an environment variable set for the command, not a word of it. */
  readonly assignment: boolean;
}

/**
 * A command read as one plain command (its words), or why it is more than that. Anything the reader is
 * not sure of counts as more: it is never taken for a plain command it is not.
 */
export type ShellReading =
  | { readonly plain: true; readonly words: readonly ShellWord[] }
  | { readonly plain: false; readonly why: string };

const CHAIN = 'it runs several commands (;, &&, ||, | or &)';
const REDIRECT = 'it redirects input or output (<, >)';
const SUBSTITUTION = 'it runs a command inside it ($(…) or backticks)';
const LINES = 'it spans several lines';
const GROUP = 'it groups commands or starts a subshell (parentheses)';
const UNCLOSED = 'a quote in it is not closed';
const SYNTAX = 'it uses shell syntax beyond one plain command';

/** `${…}` that only names a variable (`${HOME}`, `${1}`, `${#}`), anything else inside being refused. */
const PLAIN_BRACED = /^\$\{(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])\}/;
/** A character that starts a `$` expansion of a variable (`$HOME`, `$1`, `$@`…). */
const AFTER_DOLLAR = /[A-Za-z0-9_@*#?$!-]/;
/** Unquoted characters that make bash expand a word (globs, braces, tilde, history, negation). */
const EXPANDING = new Set(['*', '?', '[', ']', '{', '}', '~', '!']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

class NotPlain {
  constructor(readonly why: string) {}
}

/** Reads a word's characters from `at`; returns where the word ends. Throws NotPlain. */
class WordReader {
  text = '';
  /** What the word held before its first quote or escape (an assignment's name must be unquoted). */
  head: string | undefined;
  literal = true;
  started = false;

  constructor(private readonly command: string) {}

  quoted(): void {
    this.started = true;
    this.head ??= this.text;
  }

  /** A `$` at `at`: an expansion of a variable (the word is not literal), or syntax refused. */
  dollar(at: number): number {
    const rest = this.command.slice(at);
    const next = rest[1];
    if (next === '(') throw new NotPlain(SUBSTITUTION);
    if (next === '{') {
      const braced = PLAIN_BRACED.exec(rest);
      if (!braced) throw new NotPlain(SYNTAX);
      this.literal = false;
      this.text += braced[0];
      return at + braced[0].length;
    }
    // $'…' and $"…" quote with rules of their own; $[…] is old arithmetic.
    if (next === '[' || next === "'" || next === '"') throw new NotPlain(SYNTAX);
    if (next !== undefined && AFTER_DOLLAR.test(next)) this.literal = false;
    this.text += '$';
    return at + 1;
  }

  /** A double-quoted part starting at `at` (the opening quote); returns the index after its closing quote. */
  doubleQuoted(at: number): number {
    this.quoted();
    const { command } = this;
    let i = at + 1;
    for (;;) {
      const c = command[i];
      if (c === undefined) throw new NotPlain(UNCLOSED);
      if (c === '"') return i + 1;
      if (c === '`') throw new NotPlain(SUBSTITUTION);
      if (c === '\n' || c === '\r') throw new NotPlain(LINES);
      if (isControl(c)) throw new NotPlain(SYNTAX);
      if (c === '$') {
        i = this.dollar(i);
        continue;
      }
      if (c === '\\') {
        const next = command[i + 1];
        if (next === '\n' || next === '\r') throw new NotPlain(LINES);
        if (next !== undefined && '$`"\\'.includes(next)) {
          this.text += next;
          i += 2;
          continue;
        }
      }
      this.text += c;
      i += 1;
    }
  }
}

function isControl(c: string): boolean {
  const code = c.charCodeAt(0);
  return (code < 0x20 && c !== '\t') || code === 0x7f;
}

/**
 * Reads `command` as bash would read one plain command: words separated by spaces and tabs, quotes
 * and escapes removed. More than that — a second command (`;`, `&&`, `||`, `|`, `&`, a line break), a
 * redirection, a command or process substitution, parentheses, a comment, an unclosed quote, `$'…'`,
 * `${…}` beyond a plain variable name, a control character — is named instead.
 */
export function readShellCommand(command: string): ShellReading {
  try {
    return { plain: true, words: wordsOf(command) };
  } catch (error) {
    if (error instanceof NotPlain) return { plain: false, why: error.why };
    throw error;
  }
}

function wordsOf(command: string): ShellWord[] {
  const words: ShellWord[] = [];
  let word = new WordReader(command);
  const end = (): void => {
    if (!word.started) return;
    const head = word.head ?? word.text;
    // Only the leading NAME=value words are assignments; after the program they are its arguments.
    const leading = words.every((w) => w.assignment);
    words.push({ text: word.text, literal: word.literal, assignment: leading && ASSIGNMENT.test(head) });
    word = new WordReader(command);
  };
  let i = 0;
  while (i < command.length) {
    const c = command[i] as string;
    if (c === ' ' || c === '\t') {
      end();
      i += 1;
      continue;
    }
    if (c === '\n' || c === '\r') throw new NotPlain(LINES);
    if (c === ';' || c === '&' || c === '|') throw new NotPlain(CHAIN);
    if (c === '<' || c === '>') throw new NotPlain(REDIRECT);
    if (c === '(' || c === ')') throw new NotPlain(GROUP);
    if (c === '`') throw new NotPlain(SUBSTITUTION);
    if (isControl(c)) throw new NotPlain(SYNTAX);
    // A comment starts only where a word would.
    if (c === '#' && !word.started) throw new NotPlain(SYNTAX);
    if (c === '\\') {
      const next = command[i + 1];
      if (next === undefined) throw new NotPlain(SYNTAX);
      if (next === '\n' || next === '\r') throw new NotPlain(LINES);
      word.quoted();
      word.text += next;
      i += 2;
      continue;
    }
    if (c === "'") {
      const close = command.indexOf("'", i + 1);
      if (close < 0) throw new NotPlain(UNCLOSED);
      const inside = command.slice(i + 1, close);
      if (/[\n\r]/.test(inside)) throw new NotPlain(LINES);
      word.quoted();
      word.text += inside;
      i = close + 1;
      continue;
    }
    if (c === '"') {
      i = word.doubleQuoted(i);
      continue;
    }
    word.started = true;
    if (c === '$') {
      i = word.dollar(i);
      continue;
    }
    if (EXPANDING.has(c)) word.literal = false;
    word.text += c;
    i += 1;
  }
  end();
  return words;
}
