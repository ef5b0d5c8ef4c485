import type { TaskRecord, TaskStatus } from '../../core/session-records.js';
import type { TaskBook } from '../../core/session-store.js';
import type { ToolContext } from '../../core/tool.js';
import { defineTool, type InProcessTool } from '../fields/define-tool.js';
import { type ArgsOf, field } from '../fields/field.js';
import { BUILTIN_GROUPS } from './builtin-groups.js';
import { checkedWork, ready, refuse } from './checked-work.js';

const STATUSES = [
  'pending',
  'in_progress',
  'completed',
  'cancelled',
] as const satisfies readonly TaskStatus[];

const TITLE = { minLength: 1, maxLength: 200, trim: true } as const;

function detail() {
  return field.string({
    description: 'More about it: what done looks like, notes.',
    maxLength: 4000,
    optional: true,
  });
}

function shown(task: TaskRecord): string {
  const more = task.detail === '' ? '' : ` — ${task.detail}`;
  return `- ${task.id} [${task.status}] ${task.title}${more}`;
}

/** Characters of task lines one task_list answer holds, well inside the runtime's cut of a result. */
const PAGE_CHARS = 12_000;

/** The tasks from `offset` on, as many as fit in a page (at least one), and where the next page starts. */
function pageOf(found: readonly TaskRecord[], offset: number): string {
  if (offset >= found.length) {
    const count = `${found.length} such task${found.length === 1 ? '' : 's'}`;
    return `Offset ${offset} is past the end: there are ${count}. Call task_list with a smaller offset (0 for the first page).`;
  }
  const lines: string[] = [];
  let size = 0;
  for (const task of found.slice(offset)) {
    const line = shown(task);
    if (lines.length > 0 && size + line.length + 1 > PAGE_CHARS) break;
    lines.push(line);
    size += line.length + 1;
  }
  const end = offset + lines.length;
  if (offset === 0 && end === found.length) return lines.join('\n');
  const rest = end < found.length ? ` Call task_list with offset ${end} for the next ones.` : '';
  return `${lines.join('\n')}\n(Tasks ${offset + 1}–${end} of ${found.length}, oldest first.${rest})`;
}

const updateFields = {
  id: field.string({
    description: 'The id of the task, as task_list shows it.',
    minLength: 1,
    maxLength: 100,
    trim: true,
  }),
  title: field.string({ ...TITLE, description: 'Its new title.', optional: true }),
  detail: detail(),
  status: field.string({ description: 'Its new status.', enum: STATUSES, optional: true }),
};

type UpdateArgs = ArgsOf<typeof updateFields>;

/** `task_create`, `task_list` and `task_update`, on the store's task book. */
export function taskTools(tasks: TaskBook): InProcessTool[] {
  const create = defineTool({
    name: 'task_create',
    description: "Adds one or more tasks to the person's to-do list, each starting as pending.",
    risk: 'safe',
    group: BUILTIN_GROUPS.tasks,
    fields: {
      tasks: field.list(
        field.object({
          title: field.string({ ...TITLE, description: 'What is to be done, in a few words.' }),
          detail: detail(),
        }),
        {
          description: 'The tasks to add, in order.',
          minItems: 1,
          maxItems: 20,
        },
      ),
    },
    async handler(args, ctx) {
      const made: TaskRecord[] = [];
      for (const task of args.tasks)
        made.push(
          await tasks.createTask({ title: task.title, detail: task.detail, sessionId: ctx.sessionId }),
        );
      return `Added ${made.length} task${made.length === 1 ? '' : 's'}:\n${made.map(shown).join('\n')}`;
    },
  });

  const list = defineTool({
    name: 'task_list',
    description: "Lists the person's tasks, oldest first, optionally only those with given statuses.",
    risk: 'safe',
    readOnly: true,
    group: BUILTIN_GROUPS.tasks,
    pagesBy: 'offset',
    fields: {
      status: field.list(field.string({ enum: STATUSES }), {
        description: 'Only tasks with one of these statuses (default: all).',
        maxItems: STATUSES.length,
        optional: true,
      }),
      scope: field.string({
        description: 'all: every task; session: only those added in this conversation.',
        enum: ['all', 'session'],
        default: 'all',
      }),
      offset: field.integer({
        description: 'How many tasks to skip, for the next page of a long list.',
        min: 0,
        default: 0,
      }),
    },
    async handler(args, ctx) {
      const statuses = args.status !== undefined && args.status.length > 0 ? args.status : undefined;
      const found = await tasks.listTasks({
        status: statuses,
        sessionId: args.scope === 'session' ? ctx.sessionId : undefined,
      });
      if (found.length === 0) {
        return statuses === undefined ? 'There are no tasks.' : `No task is ${statuses.join(' or ')}.`;
      }
      return pageOf(found, args.offset);
    },
  });

  const checkUpdate = async (args: UpdateArgs, _ctx: ToolContext) => {
    if (args.title === undefined && args.detail === undefined && args.status === undefined) {
      return refuse('no_change', 'task_update names no change: give a new title, detail or status.');
    }
    if ((await tasks.getTask(args.id)) === undefined) {
      return refuse('unknown_task', `No task has the id ${JSON.stringify(args.id)}.`, [
        'Call task_list to see the ids.',
      ]);
    }
    return ready(args);
  };
  const update = defineTool({
    name: 'task_update',
    description: "Changes a task's title, detail or status (pending, in_progress, completed, cancelled).",
    risk: 'safe',
    group: BUILTIN_GROUPS.tasks,
    fields: updateFields,
    ...checkedWork(checkUpdate, async (args) => {
      const task = await tasks.updateTask(args.id, {
        title: args.title,
        detail: args.detail,
        status: args.status,
      });
      return `Updated:\n${shown(task)}`;
    }),
  });

  return [create, list, update] as InProcessTool[];
}
