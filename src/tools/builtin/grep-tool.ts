import { basename } from 'node:path';
import type { ToolContext } from '../../core/tool.js';
import { defineTool } from '../fields/define-tool.js';
import { type ArgsOf, field } from '../fields/field.js';
import { BUILTIN_GROUPS } from './builtin-groups.js';
import { checkedWork, ready, refuse } from './checked-work.js';
import { credentialEntryPlace } from './credential-paths.js';
import { displayPath, type FileScope, type Located, locate } from './file-scope.js';
import { cutAround, PATH_TEXT } from './file-text.js';
import { globMatcher } from './glob-matcher.js';
import { type LineMatch, RegexTooSlow, RegexWorker } from './regex-worker.js';
import { searchedLines } from './searched-lines.js';
import { skippedFor, stoppedSearch, type WalkBudget, walkFiles } from './walk-files.js';

/** A matching line longer than this is cut when shown. */
const MAX_SHOWN_LINE = 300;

const fields = {
  pattern: field.string({
    description: 'The text to look for, within one line (a regular expression when regex is true).',
    minLength: 1,
    maxLength: 1000,
  }),
  path: field.string({
    description: 'The file or folder to search (default: the first workspace folder).',
    ...PATH_TEXT,
    optional: true,
  }),
  include: field.string({
    description: 'Only search files matching this glob, e.g. "*.ts" (any folder) or "src/**/*.py".',
    maxLength: 1000,
    trim: true,
    optional: true,
  }),
  regex: field.boolean({
    description:
      'Read pattern as a JavaScript regular expression; false (the default) looks for the text as written.',
    safe: false,
  }),
  ignore_case: field.boolean({ description: 'Match letters in either case.', optional: true }),
  limit: field.integer({ description: 'The most matching lines to show.', min: 1, max: 1000, default: 100 }),
};

type Args = ArgsOf<typeof fields>;

function matcherOf(args: Args): RegExp | string {
  const flags = args.ignore_case === true ? 'i' : '';
  const source = args.regex ? args.pattern : args.pattern.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  try {
    return new RegExp(source, flags);
  } catch (error) {
    return (error as Error).message;
  }
}

function includeOf(include: string | undefined): ((rel: string) => boolean) | string {
  if (include === undefined) return () => true;
  try {
    const re = globMatcher(include, false);
    return include.includes('/') ? (rel) => re.test(rel) : (rel) => re.test(basename(rel));
  } catch (error) {
    return (error as Error).message;
  }
}

/** The files a search reads: the target itself, or every file below it that `include` admits. */
async function filesUnder(
  target: Located,
  include: (rel: string) => boolean,
  skip: ReadonlySet<string>,
  budget: WalkBudget,
  signal: AbortSignal,
): Promise<string[]> {
  if (!target.stat?.isDirectory()) return [target.real];
  const files: string[] = [];
  for await (const { rel, full, entry } of walkFiles(target, budget, skip, signal)) {
    // A credential file is passed over as read_file would refuse it: its lines never reach the model.
    if (entry.isFile() && include(rel) && credentialEntryPlace(full, target.roots) === undefined) {
      files.push(full);
    }
  }
  return files;
}

/** The lines that match, and where (in a worker for a model's regular expression; see `RegexWorker`). */
type LineTest = (lines: readonly string[]) => Promise<LineMatch[]>;

/** A line test run here: for the literal text search, whose expression cannot backtrack without end. */
function testHere(matcher: RegExp): LineTest {
  return async (lines) => {
    const hits: LineMatch[] = [];
    for (let i = 0; i < lines.length; i++) {
      const found = matcher.exec(lines[i] as string);
      if (found !== null) hits.push({ index: i, at: found.index });
    }
    return hits;
  };
}

/**
 * The first `limit` matching lines of the text files among `files` (binary files passed over), each cut to
 * the part around its match, with the context's secrets hidden before it is cut, so a cut never leaves part
 * of one showing.
 */
async function matchingLines(files: readonly string[], test: LineTest, limit: number, ctx: ToolContext) {
  const { signal, secrets } = ctx;
  const lines: Array<{ readonly file: string; readonly line: number; readonly text: string }> = [];
  let searched = 0;
  for (const file of files) {
    if (signal.aborted) break;
    const batches = await searchedLines(file, signal);
    if (batches === undefined) continue;
    searched++;
    let first = 0;
    for await (const batch of batches) {
      for (const { index, at } of await test(batch)) {
        if (lines.length === limit) return { lines, searched, more: true };
        const text = cutAround(batch[index] as string, at, MAX_SHOWN_LINE, secrets);
        lines.push({ file, line: first + index + 1, text });
      }
      first += batch.length;
    }
  }
  return { lines, searched, more: false };
}

/** `grep`: shows the lines of workspace files that contain a text or match a regular expression. */
export function grepTool(scope: FileScope) {
  const check = async (args: Args, ctx: ToolContext) => {
    // Each line is matched without its line break, so a pattern holding one matches nothing anywhere.
    if (/[\r\n]/.test(args.pattern)) {
      return refuse(
        'several_lines',
        'pattern holds a line break, but grep matches one line at a time, so no line could match it.',
        ['Search for one line of it (the most telling one), then read_file around the lines found.'],
      );
    }
    const matcher = matcherOf(args);
    if (typeof matcher === 'string') {
      return refuse('bad_regex', `pattern is not a regular expression JavaScript can use: ${matcher}`, [
        'Fix the expression, or send regex: false to look for the text as written.',
      ]);
    }
    const include = includeOf(args.include);
    if (typeof include === 'string') return refuse('bad_glob', `include cannot be used: ${include}.`);
    const located = await locate(args.path ?? '.', ctx, scope, 'read');
    if ('refusal' in located) return located;
    if (located.ready.stat === undefined) {
      return refuse('not_found', `${args.path ?? '.'} does not exist.`, ['Use glob or list_dir to find it.']);
    }
    // A named pipe or a device would be read without end (a pipe waits for a writer that never comes).
    if (!located.ready.stat.isDirectory() && !located.ready.stat.isFile()) {
      return refuse(
        'not_a_file',
        `${args.path ?? '.'} is neither a regular file nor a folder, so grep cannot search it.`,
        ['Name a text file, or a folder to search the files in it.'],
      );
    }
    return ready({ target: located.ready, matcher, include });
  };

  return defineTool({
    name: 'grep',
    description:
      'Searches the text files in a workspace file or folder for a text (or a regular expression) and shows ' +
      'each matching line as path:line: text. Binary files, credential files and folders (.env, keys, .ssh), ' +
      'files with several names (hard links), .git and node_modules are passed over.',
    risk: 'safe',
    readOnly: true,
    group: BUILTIN_GROUPS.files,
    fields,
    ...checkedWork(check, async ({ target, matcher, include }, args, ctx) => {
      const budget: WalkBudget = { visited: 0, cut: false, limit: scope.searchEntryLimit };
      const files = await filesUnder(
        target,
        include,
        skippedFor(`${args.path ?? ''} ${args.include ?? ''}`),
        budget,
        ctx.signal,
      );
      const worker = args.regex ? new RegexWorker(matcher) : undefined;
      const test: LineTest = worker ? (lines) => worker.matchLines(lines, ctx.signal) : testHere(matcher);
      let found: Awaited<ReturnType<typeof matchingLines>>;
      try {
        found = await matchingLines(files, test, args.limit, ctx);
      } catch (error) {
        if (ctx.signal.aborted) return stoppedSearch('grep');
        if (!(error instanceof RegexTooSlow)) throw error;
        return {
          content:
            `Error: the regular expression ran for more than ${error.ms / 1000} s on one file and was stopped; ` +
            'it most likely backtracks without end (nested repeats such as (a+)+ do). Simplify it, or send ' +
            'regex: false to look for the text as written.',
          isError: true,
          data: { code: error.code },
        };
      } finally {
        await worker?.close();
      }
      if (ctx.signal.aborted) return stoppedSearch('grep');
      const shown = found.lines.map(
        ({ file, line, text }) => `${displayPath(file, target.roots)}:${line}: ${text}`,
      );
      const where = `${found.searched} file${found.searched === 1 ? '' : 's'} searched`;
      if (shown.length === 0) {
        return budget.cut
          ? `No line matches (${where}), but the search stopped after the first ${budget.visited.toLocaleString('en-US')} folder entries, so files past them were not searched. Narrow it with path or include.`
          : `No line matches (${where}).`;
      }
      if (found.more) {
        shown.push(
          `[only the first ${args.limit} matching lines are shown; narrow the search to see others]`,
        );
      }
      if (budget.cut) shown.push('[the search stopped after too many folder entries; narrow it with path]');
      return shown.join('\n');
    }),
  });
}
