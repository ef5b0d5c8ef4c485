import type { ToolContext } from '../../core/tool.js';
import { defineTool } from '../define-tool.js';
import { type ArgsOf, field } from '../field.js';
import { BUILTIN_GROUPS } from './builtin-groups.js';
import { checkedWork, ready, refuse } from './checked-work.js';
import { type FileScope, locate } from './file-scope.js';
import { cutLine, linesOf, PATH_TEXT, readTextFile } from './file-text.js';
import { markRead } from './read-gate.js';
import { redactSecrets } from './redact-secrets.js';

/** A line longer than this is cut when shown. */
const MAX_LINE_CHARS = 2000;

const fields = {
  path: field.string({
    description: 'The file to read: relative to the first workspace folder, or absolute.',
    ...PATH_TEXT,
    minLength: 1,
  }),
  offset: field.integer({ description: 'The line to start at; 1 is the first line.', min: 1, default: 1 }),
  limit: field.integer({ description: 'The most lines to show.', min: 1, max: 5000, default: 2000 }),
};

type Args = ArgsOf<typeof fields>;

/** Room kept in a result for the note that says which lines were shown and where to read on. */
const NOTE_ROOM = 200;

/**
 * The numbered lines from `first` on, as many of `lines` as fit in `room` characters (at least one): a
 * result the runtime had to cut would lose the last lines and the note saying where to read on.
 */
function numbered(
  lines: readonly string[],
  first: number,
  room: number,
  hidden?: ReadonlyMap<string, string>,
): string[] {
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < lines.length; i += 1) {
    const text = `${String(first + i).padStart(6)}\t${cutLine(lines[i] as string, MAX_LINE_CHARS, hidden)}`;
    used += text.length + 1;
    if (out.length > 0 && used > room) break;
    out.push(text);
  }
  return out;
}

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
    return ready({ located: located.ready, lines });
  };
  return defineTool({
    name: 'read_file',
    description:
      'Reads a text file in the workspace and shows its lines numbered (number, tab, text). Use offset and limit ' +
      'to read a long file in parts. A file must be read in this turn before edit_file can change it.',
    risk: 'safe',
    readOnly: true,
    group: BUILTIN_GROUPS.files,
    fields,
    ...checkedWork(check, ({ located, lines }, args, ctx) => {
      markRead(ctx, located.real, located.stat?.mtimeMs ?? 0);
      if (lines.length === 0) return `${args.path} is empty.`;
      const start = args.offset - 1;
      const asked = lines.slice(start, start + args.limit);
      const room = (ctx.resultChars ?? Number.POSITIVE_INFINITY) - NOTE_ROOM;
      const shown = numbered(asked, args.offset, room, ctx.secrets);
      const last = start + shown.length;
      const body = shown.join('\n');
      if (start === 0 && last === lines.length) return body;
      const fitted = shown.length < asked.length ? ', as many as fit in one result' : '';
      const more =
        last < lines.length ? ` Call read_file with offset ${last + 1} to read on.` : ' That is the end.';
      return `${body}\n[lines ${args.offset}–${last} of ${lines.length}${fitted}.${more}]`;
    }),
  });
}
