import { isWordChar } from './char-class.js';
import { words } from './tokenize.js';

/** One cheap pattern over the request and the tool-name words it points at. */
interface Hint {
  readonly pattern: RegExp;
  /** A scan that also counts: for what a pattern finds only by backtracking over long runs. */
  readonly also?: (text: string) => boolean;
  readonly fragments: readonly string[];
}

/** Tool names a shell request points at beyond the generic words. */
const SHELL_TOOL_NAMES = ['bash', 'shell', 'exec', 'run_command', 'terminal'];

const WEEKDAY = '(?:mon|tues|wednes|thurs|fri|satur|sun)day';
const UNIT = '(?:minute|min|hour|day|week|month|year|morning|evening|night|weekday|weekend)s?';

/** The patterns, in the order they are tried; each adds its fragments when it matches. */
const HINTS: readonly Hint[] = [
  { pattern: /https?:\/\/|\bwww\.|\.(?:com|org|net|io|dev)\b/, fragments: ['web', 'fetch', 'url', 'browse'] },
  {
    pattern: new RegExp(
      `schedul|remind|\\bcron\\b|\\b(?:daily|weekly|monthly|hourly|nightly)\\b|\\bevery (?:other )?(?:\\d+ )?(?:${UNIT}|${WEEKDAY})\\b|\\b(?:message|text|ping|notify|remind) me\\b`,
    ),
    fragments: ['schedule', 'cron', 'trigger', 'onetime', 'recurring', 'automation_create'],
  },
  {
    pattern:
      /\b(?:when|whenever)\b.{0,80}\b(?:lands?|arrives?|appears?|comes? in|changes?|shows? up|finish(?:es)?|fails?|completes?|(?:is|are|gets?) (?:added|created|modified|updated|saved|uploaded))\b|\bautomat(?:e|es|ed|ion|ions|ically)\b|\b(?:each|every) time\b/,
    fragments: ['automation_create'],
  },
  { pattern: /\bautomations?\b/, fragments: ['automation_list'] },
  {
    pattern:
      /\b(?:shell|bash|command|terminal|execute|run|npm|pip|make|cargo|go|node|python|pytest|ls|cat|echo|chmod|mkdir|curl|git|commit|diff|branch|stage|tests?|testing|spec|assert|lint|build)\b|\$ /,
    fragments: ['shell', 'exec', 'command', 'terminal', ...SHELL_TOOL_NAMES],
  },
  {
    pattern: /\bremember|\brecall|\bmemor|\blessons?\b/,
    fragments: ['memory', 'recall', 'lesson', 'chat_search'],
  },
  {
    pattern:
      /\b(?:handoff|hand-off|standup|stand-up|recap|retro|catch (?:me )?up|status (?:update|report)|(?:weekly|monthly|daily) (?:review|report|summary|update)|(?:this|last|past|previous) (?:week|month|sprint|quarter|shift)|(?:last|past|previous) \d+ (?:days|weeks|months)|yesterday|(?:earlier|previous|past|other|last) (?:chats?|conversations?|sessions?|threads?)|we (?:discuss|talk|decid|agree|settl)\w*|i (?:told|asked|showed) you)\b/,
    fragments: ['chat_search'],
  },
  { pattern: /\btasks?\b|\btodos?\b|\bto-dos?\b|\bbacklog/, fragments: ['task'] },
  {
    pattern: /(?:^|[\s'"`(])(?:~|\.{1,2})?\/[\w.-]+/,
    also: hasFileName,
    fragments: ['file', 'read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep'],
  },
];

/** The tool-name fragments a request points at (empty when nothing structural stands out). */
export function hintedFragments(query: string): string[] {
  const text = query.trim().toLowerCase();
  const out = new Set<string>();
  for (const hint of HINTS)
    if (hint.pattern.test(text) || hint.also?.(text)) for (const f of hint.fragments) out.add(f);
  return [...out];
}

/** Extensions that make a word a file's name. */
const FILE_EXTENSIONS = 'txt md json yaml yml csv ts js py toml log pdf docx doc'.split(' ');

/**
 * True when lowercase text names a file by its extension ("notes.md", "q3-report.pdf"): a name of
 * letters, digits, `_` and `-` holding at least one letter, digit or `_`, then a dot, then an
 * extension that ends the word. Read from each dot outward: the name before one dot never reaches
 * back past the previous dot, so the whole text is read about twice however it is made.
 */
export function hasFileName(text: string): boolean {
  for (let dot = text.indexOf('.'); dot >= 0; dot = text.indexOf('.', dot + 1)) {
    if (!namedBefore(text, dot)) continue;
    for (const ext of FILE_EXTENSIONS) {
      if (text.startsWith(ext, dot + 1) && !isWordChar(text.charCodeAt(dot + 1 + ext.length))) return true;
    }
  }
  return false;
}

/** True when the run of `[\w-]` that ends at `end` holds a `\w` character. */
function namedBefore(text: string, end: number): boolean {
  for (let i = end - 1; i >= 0; i -= 1) {
    const c = text.charCodeAt(i);
    if (isWordChar(c)) return true;
    if (c !== 45) return false;
  }
  return false;
}

/** A tool name read the ways a fragment can name it. */
export interface NameParts {
  readonly lower: string;
  /** The part after the last `/` or `__` (the whole name when there is none). */
  readonly last: string;
  readonly words: readonly string[];
}

/** Splits a tool name for `fragmentNames` (worth caching: hints test every tool every turn). */
export function nameParts(toolName: string): NameParts {
  const lower = toolName.toLowerCase();
  return { lower, last: lower.split(/\/|__/).pop() ?? lower, words: words(toolName) };
}

/** Fragments prepared for matching many tool names: the fragments, and every word form they accept. */
export interface FragmentMatcher {
  readonly fragments: ReadonlySet<string>;
  readonly words: ReadonlySet<string>;
}

/** Prepares fragments once per request (a plural of a fragment names a tool too). */
export function fragmentMatcher(fragments: readonly string[]): FragmentMatcher {
  const words = new Set<string>();
  for (const f of fragments) words.add(f).add(`${f}s`).add(`${f}es`);
  return { fragments: new Set(fragments), words };
}

/**
 * True when a fragment names the tool: the whole name, its last segment after `/` or `__`, or one of
 * its words (a plural counts). Words, never substrings: `read` does not name `task_ready`.
 */
export function fragmentNames(fragment: string | FragmentMatcher, name: string | NameParts): boolean {
  const parts = typeof name === 'string' ? nameParts(name) : name;
  const m = typeof fragment === 'string' ? fragmentMatcher([fragment]) : fragment;
  if (m.fragments.has(parts.lower) || m.fragments.has(parts.last)) return true;
  for (const w of parts.words) if (m.words.has(w)) return true;
  return false;
}
