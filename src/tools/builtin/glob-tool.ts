import { join } from 'node:path';
import type { ToolContext } from '../../core/tool.js';
import { defineTool } from '../fields/define-tool.js';
import { type ArgsOf, field } from '../fields/field.js';
import { BUILTIN_GROUPS } from './builtin-groups.js';
import { checkedWork, ready, refuse } from './checked-work.js';
import { displayPath, type FileScope, locate } from './file-scope.js';
import { PATH_TEXT } from './file-text.js';
import { type GlobMatcher, globMatcher } from './glob-matcher.js';
import { isAbsolutePattern, namesOnePath, splitGlob } from './glob-pattern.js';
import { skippedFor, stoppedSearch, type WalkBudget, walkFiles } from './walk-files.js';

const fields = {
  pattern: field.string({
    description:
      'The glob to match, e.g. "src/**/*.ts" or "*.md" (top folder only); ** spans folders, {a,b} picks one; ' +
      'a pattern ending in / lists folders ("src/*/").',
    minLength: 1,
    maxLength: 1000,
    trim: true,
  }),
  path: field.string({
    description: 'The folder to search from (default: the first workspace folder).',
    ...PATH_TEXT,
    optional: true,
  }),
  ignore_case: field.boolean({
    description: "Match letters in either case (an absolute pattern's leading folders are taken as written).",
    optional: true,
  }),
  limit: field.integer({ description: 'The most paths to list.', min: 1, max: 1000, default: 200 }),
};

type Args = ArgsOf<typeof fields>;

/** `glob`: lists the files whose paths match a glob, inside the workspace folders. */
export function globTool(scope: FileScope) {
  const check = async (args: Args, ctx: ToolContext) => {
    if (isAbsolutePattern(args.pattern) && args.path !== undefined) {
      return refuse('two_starts', 'The pattern is an absolute path, so path must be left out.', [
        'Send the absolute pattern alone, or a relative pattern with path.',
      ]);
    }
    // A pattern ending in `/` asks for folders, as in a shell (`src/*/`); it is matched without the slash.
    const foldersOnly = args.pattern.length > 1 && args.pattern.endsWith('/') && !namesOnePath(args.pattern);
    const pattern = foldersOnly ? args.pattern.replace(/\/+$/, '') : args.pattern;
    const { base, rest } = splitGlob(pattern, args.ignore_case === true);
    const start = isAbsolutePattern(pattern) ? base : join(args.path ?? '.', base);
    let matcher: GlobMatcher;
    try {
      matcher = globMatcher(rest, args.ignore_case === true);
    } catch (error) {
      return refuse('bad_glob', `The pattern cannot be used: ${(error as Error).message}.`);
    }
    const located = await locate(start, ctx, scope, 'read');
    if ('refusal' in located) return located;
    const folder = located.ready;
    if (folder.stat === undefined) {
      return refuse('not_found', `${start} does not exist, so nothing matches ${args.pattern}.`, [
        'Use list_dir to see which folders there are.',
      ]);
    }
    if (rest !== '' && !folder.stat.isDirectory()) {
      return refuse('not_a_folder', `${start} is a file, not a folder to search.`);
    }
    // A pattern without wildcards names a path, which may be a folder; a wildcard finds files.
    return ready({ folder, matcher, whole: rest === '', folders: namesOnePath(args.pattern), foldersOnly });
  };
  return defineTool({
    name: 'glob',
    description:
      'Finds files by path pattern inside the workspace folders and lists them, folder by folder in name order. ' +
      '.git and node_modules are passed over unless the pattern names them; credential folders (.ssh, .env) always.',
    risk: 'safe',
    readOnly: true,
    group: BUILTIN_GROUPS.files,
    fields,
    ...checkedWork(check, async ({ folder, matcher, whole, folders, foldersOnly }, args, ctx) => {
      if (whole) return displayPath(folder.real, folder.roots);
      const budget: WalkBudget = { visited: 0, cut: false, limit: scope.searchEntryLimit };
      const found: string[] = [];
      let more = false;
      for await (const { rel, full, entry } of walkFiles(
        folder,
        budget,
        skippedFor(args.pattern),
        ctx.signal,
      )) {
        const wanted = foldersOnly ? entry.isDirectory() : folders || !entry.isDirectory();
        if (!wanted || !matcher.test(rel)) continue;
        if (found.length === args.limit) {
          more = true;
          break;
        }
        found.push(`${displayPath(full, folder.roots)}${foldersOnly ? '/' : ''}`);
      }
      if (ctx.signal.aborted) return stoppedSearch('glob');
      if (found.length === 0) {
        return budget.cut
          ? `No file matched ${args.pattern} among the first ${budget.visited.toLocaleString('en-US')} entries; the search stopped there. Narrow it with path.`
          : `No ${foldersOnly ? 'folder' : 'file'} matches ${args.pattern}.`;
      }
      const notes: string[] = [];
      if (more)
        notes.push(`[only the first ${args.limit} matches are listed; narrow the pattern to see others]`);
      if (budget.cut) notes.push('[the search stopped after too many entries; narrow it with path]');
      return [...found, ...notes].join('\n');
    }),
  });
}
