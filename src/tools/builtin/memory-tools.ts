import type { MemoryRecord } from '../../core/session-records.js';
import type { MemoryBook } from '../../core/session-store.js';
import { defineTool, type InProcessTool } from '../fields/define-tool.js';
import { type ArgsOf, field } from '../fields/field.js';
import { BUILTIN_GROUPS } from './builtin-groups.js';
import { checkedWork, ready, refuse } from './checked-work.js';

const tag = field.string({
  description: 'A tag, e.g. "family" or "work".',
  minLength: 1,
  maxLength: 40,
  trim: true,
});

/** The optional tag a listing is narrowed to. */
function tagFilter() {
  return field.string({
    description: 'Only memories with this tag.',
    maxLength: 40,
    trim: true,
    optional: true,
  });
}

function shown(memory: MemoryRecord): string {
  const tags = memory.tags.length > 0 ? ` [${memory.tags.join(', ')}]` : '';
  return `- ${memory.id}: ${memory.text}${tags} (saved ${memory.updatedAt.slice(0, 10)})`;
}

function listing(memories: readonly MemoryRecord[], none: string): string {
  return memories.length === 0 ? none : memories.map(shown).join('\n');
}

const recallFields = {
  query: field.string({
    description: 'Words to look for in what was remembered.',
    minLength: 1,
    maxLength: 500,
    trim: true,
  }),
  tag: tagFilter(),
  limit: field.integer({ description: 'The most memories to show.', min: 1, max: 50, default: 10 }),
};

/** `memory_save`, `memory_recall` and `memory_list`, on the store's memory book. */
export function memoryTools(memory: MemoryBook): InProcessTool[] {
  const save = defineTool({
    name: 'memory_save',
    description:
      'Remembers a fact or preference for later conversations (e.g. "Sam is allergic to peanuts"). Saving ' +
      'something already remembered refreshes it instead of repeating it.',
    risk: 'safe',
    group: BUILTIN_GROUPS.memory,
    fields: {
      text: field.string({
        description: 'What to remember, as one self-contained sentence.',
        minLength: 1,
        maxLength: 4000,
        trim: true,
      }),
      tags: field.list(tag, { description: 'Tags to find it by later.', maxItems: 10, optional: true }),
    },
    async handler(args, ctx) {
      const saved = await memory.saveMemory({ text: args.text, tags: args.tags, sessionId: ctx.sessionId });
      const fresh = saved.createdAt === saved.updatedAt;
      return `${fresh ? 'Remembered' : 'Already remembered; refreshed'}:\n${shown(saved)}`;
    },
  });

  const recall = defineTool({
    name: 'memory_recall',
    description: 'Finds remembered facts by words they contain (or their tags), best matches first.',
    risk: 'safe',
    readOnly: true,
    group: BUILTIN_GROUPS.memory,
    fields: recallFields,
    ...checkedWork(
      (args: ArgsOf<typeof recallFields>) =>
        /[\p{L}\p{N}]/u.test(args.query)
          ? ready(args)
          : refuse('no_words', `The query ${JSON.stringify(args.query)} has no words to look for.`, [
              'Send at least one word, or use memory_list to see the latest memories.',
            ]),
      async (args) =>
        listing(
          await memory.recallMemories(args.query, { tag: args.tag || undefined, limit: args.limit }),
          `Nothing remembered matches ${JSON.stringify(args.query)}.`,
        ),
    ),
  });

  const list = defineTool({
    name: 'memory_list',
    description: 'Lists remembered facts, the most recently saved first.',
    risk: 'safe',
    readOnly: true,
    group: BUILTIN_GROUPS.memory,
    fields: {
      tag: tagFilter(),
      limit: field.integer({ description: 'The most memories to list.', min: 1, max: 100, default: 20 }),
    },
    async handler(args) {
      // A blank tag is how many models say "no tag".
      const tag = args.tag || undefined;
      const none =
        tag === undefined ? 'Nothing is remembered yet.' : `Nothing is remembered with the tag ${tag}.`;
      return listing(await memory.listMemories({ tag, limit: args.limit }), none);
    },
  });

  return [save, recall, list] as InProcessTool[];
}
