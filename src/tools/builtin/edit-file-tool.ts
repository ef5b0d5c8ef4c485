import { stat } from 'node:fs/promises';
import type { ToolContext } from '../../core/tool.js';
import { defineTool, refusalResult } from '../fields/define-tool.js';
import { type ArgsOf, field } from '../fields/field.js';
import { writeFileAtomic } from './atomic-write.js';
import { BUILTIN_GROUPS } from './builtin-groups.js';
import { checkedWork, ready, refuse } from './checked-work.js';
import { oneAtATime } from './file-queue.js';
import { type FileScope, hardLinkRefusal, locate } from './file-scope.js';
import { PATH_TEXT, readTextFile } from './file-text.js';
import { markRead, readInThisTurn } from './read-gate.js';

const fields = {
  path: field.string({
    description: 'The file to change: relative to the first workspace folder, or absolute.',
    ...PATH_TEXT,
    minLength: 1,
  }),
  old_text: field.string({
    description: 'The exact text to replace, as read_file showed it (without the line numbers).',
    minLength: 1,
  }),
  new_text: field.string({ description: 'The text to put in its place (empty to delete it).' }),
  replace_all: field.boolean({
    description:
      'Replace every match; false (the default) replaces one match and refuses when there are more.',
    safe: false,
  }),
};

type Args = ArgsOf<typeof fields>;

function countOf(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/** The texts to match and write, in the file's own line endings (a model writes \n even for \r\n files). */
function inFileEndings(text: string, args: Args): { readonly from: string; readonly to: string } {
  if (!text.includes('\r\n')) return { from: args.old_text, to: args.new_text };
  const crlf = (s: string) => s.replace(/\r?\n/g, '\r\n');
  const at = text.indexOf(args.old_text);
  if (at === -1) return { from: crlf(args.old_text), to: crlf(args.new_text) };
  // Matched as sent: new lines end as the line the match ends on does (a file may mix endings); on a last
  // line with no line break, as the line before it does.
  const after = text.indexOf('\n', at + args.old_text.length);
  const eol = after === -1 ? text.lastIndexOf('\n') : after;
  const onCrlf = eol > 0 && text[eol - 1] === '\r';
  return { from: args.old_text, to: onCrlf ? crlf(args.new_text) : args.new_text };
}

/** `edit_file`: replaces exact text in a file read in this turn. */
export function editFileTool(scope: FileScope) {
  const check = async (args: Args, ctx: ToolContext) => {
    if (args.old_text === args.new_text) {
      return refuse('no_change', 'old_text and new_text are identical, so the edit would change nothing.', [
        'Send the text as it should read after the change in new_text.',
      ]);
    }
    const located = await locate(args.path, ctx, scope, 'write');
    if ('refusal' in located) return located;
    const file = located.ready;
    if (file.stat === undefined) {
      return refuse('not_found', `${args.path} does not exist.`, ['To create a file, use write_file.']);
    }
    // An edit reads the file: a file with several names is refused as read_file refuses it.
    if (file.stat.isFile() && file.stat.nlink > 1)
      return hardLinkRefusal(args.path, file.real, file.stat.nlink);
    const seen = readInThisTurn(ctx, file.real);
    if (seen === undefined && file.stat.isFile()) {
      return refuse('not_read', `${args.path} has not been read in this turn, so it cannot be edited yet.`, [
        'Call read_file on it first, then edit_file with text copied from what it shows.',
      ]);
    }
    if (seen !== undefined && seen !== file.stat.mtimeMs) {
      return refuse('changed_since_read', `${args.path} changed after it was read in this turn.`, [
        'Call read_file on it again and base the edit on what it holds now.',
      ]);
    }
    const text = await readTextFile(file, 'edit_file', { utf8Only: true });
    if ('refusal' in text) return text;
    const { from, to } = inFileEndings(text.ready, args);
    const count = countOf(text.ready, from);
    if (count === 0) {
      return refuse('not_found_text', `old_text was not found in ${args.path}.`, [
        'Copy the text exactly as read_file shows it, spaces and indentation included, without line numbers.',
      ]);
    }
    if (count > 1 && !args.replace_all) {
      return refuse('ambiguous', `old_text matches ${count} places in ${args.path}; it must match one.`, [
        'Include more of the surrounding text so it matches once, or set replace_all to true to change all of them.',
      ]);
    }
    const at = text.ready.indexOf(from);
    const line = text.ready.slice(0, at).split('\n').length;
    const updated = args.replace_all ? text.ready.split(from).join(to) : text.ready.replace(from, () => to);
    return ready({ real: file.real, updated, count: args.replace_all ? count : 1, line });
  };
  return defineTool({
    name: 'edit_file',
    description:
      'Changes a file by replacing exact text: old_text must appear once (or set replace_all). The file ' +
      'must have been read with read_file in this turn.',
    risk: 'caution',
    group: BUILTIN_GROUPS.files,
    fields,
    grantScope: { folderOf: 'path' },
    ...checkedWork(check, (checked, args, ctx) =>
      oneAtATime(checked.real, async () => {
        // An edit of the same reply may have changed the file while this one waited: check again, so this
        // edit applies to what the file holds now instead of writing back the text from before it.
        const now = await check(args, ctx);
        if ('refusal' in now) return refusalResult(now.refusal);
        const { real, updated, count, line } = now.ready;
        await writeFileAtomic(real, updated);
        markRead(ctx, real, (await stat(real)).mtimeMs);
        const what = count === 1 ? `1 match, at line ${line}` : `${count} matches, the first at line ${line}`;
        return `Edited ${args.path}: replaced ${what}.`;
      }),
    ),
  });
}
