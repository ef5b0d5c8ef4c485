import { lstat, mkdir, stat } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
import type { ToolContext } from '../../core/tool.js';
import { defineTool } from '../fields/define-tool.js';
import { type ArgsOf, field } from '../fields/field.js';
import { writeFileAtomic } from './atomic-write.js';
import { BUILTIN_GROUPS } from './builtin-groups.js';
import { checkedWork, ready, refuse } from './checked-work.js';
import { oneAtATime } from './file-queue.js';
import { displayPath, type FileScope, locate } from './file-scope.js';
import { linesOf, PATH_TEXT } from './file-text.js';
import { markRead } from './read-gate.js';

const fields = {
  path: field.string({
    description: 'The file to write: relative to the first workspace folder, or absolute.',
    ...PATH_TEXT,
    minLength: 1,
  }),
  content: field.string({ description: 'The whole new content of the file.' }),
};

type Args = ArgsOf<typeof fields>;

/** The nearest existing place above `real` when it is not a folder (so nothing can be created there). */
async function fileInTheWay(real: string): Promise<string | undefined> {
  for (let dir = dirname(real); ; dir = dirname(dir)) {
    const found = await lstat(dir).catch(() => undefined);
    if (found !== undefined) return found.isDirectory() ? undefined : dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** `write_file`: creates a file, or replaces all of one, inside the folders the call may change. */
export function writeFileTool(scope: FileScope) {
  const check = async (args: Args, ctx: ToolContext) => {
    // Resolving would drop the slash and write a file by the folder's name.
    if (args.path.endsWith('/') || args.path.endsWith(sep)) {
      return refuse('names_folder', `${args.path} ends with a slash, so it names a folder, not a file.`, [
        'Give the path of the file to write, e.g. docs/README.md; its folders are created as needed.',
      ]);
    }
    const located = await locate(args.path, ctx, scope, 'write');
    if ('refusal' in located) return located;
    const found = located.ready.stat;
    if (found?.isDirectory()) {
      return refuse('is_folder', `${args.path} is a folder; write_file writes files.`, [
        'Name a file inside it instead.',
      ]);
    }
    if (found !== undefined && !found.isFile()) {
      return refuse('not_a_file', `${args.path} is not a regular file, so write_file will not replace it.`);
    }
    if (found === undefined) {
      const blocking = await fileInTheWay(located.ready.real);
      if (blocking !== undefined) {
        const shown = displayPath(blocking, located.ready.roots);
        return refuse(
          'not_a_folder',
          `${args.path} cannot be created: ${shown} is a file, not a folder, so nothing can go inside it.`,
          ['Write to a path whose folders are folders, or ask the person whether that file should go.'],
        );
      }
    }
    return ready(located.ready);
  };
  return defineTool({
    name: 'write_file',
    description:
      'Writes a text file in the workspace: creates it (and any missing folders) or replaces its whole ' +
      'content. To change part of an existing file, read it and use edit_file instead.',
    risk: 'caution',
    group: BUILTIN_GROUPS.files,
    fields,
    grantScope: { folderOf: 'path' },
    ...checkedWork(check, async (located, args, ctx) => {
      await mkdir(dirname(located.real), { recursive: true });
      // Queued with the edits of the same file, so none of them writes back text from before this write.
      await oneAtATime(located.real, async () => {
        await writeFileAtomic(located.real, args.content);
        // The model knows what it just wrote, so an edit later in this turn needs no fresh read.
        markRead(ctx, located.real, (await stat(located.real)).mtimeMs);
      });
      const lines = linesOf(args.content).length;
      const verb = located.stat === undefined ? 'Created' : 'Replaced the content of';
      return `${verb} ${args.path}: ${lines} line${lines === 1 ? '' : 's'}, ${Buffer.byteLength(args.content)} bytes.`;
    }),
  });
}
