import type { ToolContext } from '../../core/tool.js';
import { defineTool } from '../fields/define-tool.js';
import { type ArgsOf, field } from '../fields/field.js';
import { redactSecrets } from '../redact-secrets.js';
import { BUILTIN_GROUPS } from './builtin-groups.js';
import { checkedWork, ready, refuse } from './checked-work.js';
import { type FileScope, locate } from './file-scope.js';
import { linesOf, PATH_TEXT, readTextFile } from './file-text.js';
import { cutNote, linePiece, MAX_LINE_CHARS, numberedLines } from './read-file-pages.js';
import { markRead } from './read-gate.js';

const fields = {
  path: field.string({
    description: 'The file to read: relative to the first workspace folder, or absolute.',
    ...PATH_TEXT,
    minLength: 1,
  }),
  offset: field.integer({ description: 'The line to start at; 1 is the first line.', min: 1, default: 1 }),
  limit: field.integer({ description: 'The most lines to show.', min: 1, max: 5000, default: 2000 }),
  column: field.integer({
    description:
      'For a line too long to show whole: the character of the line at offset to start at (1 is its start); ' +
      'that line alone is shown, in a piece.',
    min: 1,
    default: 1,
  }),
};

type Args = ArgsOf<typeof fields>;

/** Room kept in a result for the note that says which lines were shown and where to read on. */
const NOTE_ROOM = 320;

/** `read_file`: shows part of a text file with line numbers, and opens it for edit_file in this turn. */
export function readFileTool(scope: FileScope) {
  const check = async (args: Args, ctx: ToolContext) => {
    const located = await locate(args.path, ctx, scope, 'read');
    if ('refusal' in located) return located;
    const text = await readTextFile(located.ready, 'read_file');
    if ('refusal' in text) return text;
    // Hidden before any line is cut, so a cut never leaves part of a secret the runtime could not recognise.
    const shown = ctx.secrets ? redactSecrets(text.ready, ctx.secrets, { keepLines: true }) : text.ready;
    const lines = linesOf(shown);
    if (args.offset > 1 && args.offset > lines.length) {
      return refuse(
        'past_end',
        `offset ${args.offset} is past the end of ${args.path}, which has ${lines.length} line${lines.length === 1 ? '' : 's'}.`,
        ['Call read_file again with a smaller offset.'],
      );
    }
    const line = lines[args.offset - 1] ?? '';
    if (args.column > 1 && args.column > line.length) {
      return refuse(
        'past_end',
        `column ${args.column} is past the end of line ${args.offset} of ${args.path}, which has ${line.length.toLocaleString('en-US')} character${line.length === 1 ? '' : 's'}.`,
        ['Call read_file again with a smaller column, or with column 1 and a later offset.'],
      );
    }
    return ready({ located: located.ready, lines });
  };
  return defineTool({
    name: 'read_file',
    description:
      'Reads a text file in the workspace and shows its lines numbered (number, tab, text). Use offset and limit ' +
      'to read a long file in parts, and column to read a very long line (minified code or JSON) in pieces. ' +
      'A file must be read in this turn before edit_file can change it.',
    risk: 'safe',
    readOnly: true,
    group: BUILTIN_GROUPS.files,
    pagesBy: 'offset',
    fields,
    ...checkedWork(check, ({ located, lines }, args, ctx) => {
      markRead(ctx, located.real, located.stat?.mtimeMs ?? 0);
      if (lines.length === 0) return `${args.path} is empty.`;
      const start = args.offset - 1;
      const room = (ctx.resultChars ?? Number.POSITIVE_INFINITY) - NOTE_ROOM;
      const first = lines[start] ?? '';
      // A line too long to show among others is read alone, piece by piece.
      if (args.column > 1 || first.length > MAX_LINE_CHARS) {
        const at = { number: args.offset, count: lines.length, column: args.column };
        return linePiece(first, at, room, ctx.secrets);
      }
      const asked = lines.slice(start, start + args.limit);
      const numbered = numberedLines(asked, args.offset, room, ctx.secrets);
      const last = start + numbered.shown.length;
      const body = numbered.shown.join('\n');
      const cut = cutNote(numbered);
      if (start === 0 && last === lines.length) return cut ? `${body}\n[${cut}]` : body;
      const fitted = numbered.shown.length < asked.length ? ', as many as fit in one result' : '';
      const more =
        last < lines.length ? ` Call read_file with offset ${last + 1} to read on.` : ' That is the end.';
      const also = cut ? ` ${cut.charAt(0).toUpperCase()}${cut.slice(1)}` : '';
      return `${body}\n[lines ${args.offset}–${last} of ${lines.length}${fitted}.${also}${more}]`;
    }),
  });
}
