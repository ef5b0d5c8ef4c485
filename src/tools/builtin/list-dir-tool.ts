import { readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolContext } from '../../core/tool.js';
import { defineTool } from '../fields/define-tool.js';
import { type ArgsOf, field } from '../fields/field.js';
import { BUILTIN_GROUPS } from './builtin-groups.js';
import { checkedWork, ready, refuse } from './checked-work.js';
import { type FileScope, locate } from './file-scope.js';
import { PATH_TEXT } from './file-text.js';

const fields = {
  path: field.string({
    description: 'The folder to list (default: the first workspace folder).',
    ...PATH_TEXT,
    default: '.',
  }),
  limit: field.integer({ description: 'The most entries to list.', min: 1, max: 1000, default: 200 }),
};

type Args = ArgsOf<typeof fields>;

/** `list_dir`: lists what a workspace folder holds. */
export function listDirTool(scope: FileScope) {
  const check = async (args: Args, ctx: ToolContext) => {
    const located = await locate(args.path, ctx, scope, 'read');
    if ('refusal' in located) return located;
    const { stat } = located.ready;
    if (stat === undefined) {
      return refuse('not_found', `${args.path} does not exist.`, ['Use list_dir on its parent folder.']);
    }
    if (!stat.isDirectory()) {
      return refuse('not_a_folder', `${args.path} is a file, not a folder.`, ['Use read_file to read it.']);
    }
    return ready(located.ready);
  };
  return defineTool({
    name: 'list_dir',
    description:
      'Lists the entries of a folder in the workspace in name order: folders end with /, links show where ' +
      'they point.',
    risk: 'safe',
    readOnly: true,
    group: BUILTIN_GROUPS.files,
    fields,
    ...checkedWork(check, async (folder, args) => {
      const entries = await readdir(folder.real, { withFileTypes: true });
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      if (entries.length === 0) return `${args.path} is empty.`;
      const lines: string[] = [];
      for (const entry of entries.slice(0, args.limit)) {
        if (entry.isDirectory()) lines.push(`${entry.name}/`);
        else if (entry.isSymbolicLink()) {
          const target = await readlink(join(folder.real, entry.name)).catch(() => '?');
          lines.push(`${entry.name} -> ${target}`);
        } else lines.push(entry.name);
      }
      if (entries.length > args.limit) {
        lines.push(
          `[${args.limit} of ${entries.length} entries shown; raise limit or use glob to see others]`,
        );
      }
      return lines.join('\n');
    }),
  });
}
