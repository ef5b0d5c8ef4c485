import { InputError } from '../../core/errors.js';
import type { MemoryFilter, NewMemory, NewTask, TaskFilter, TaskPatch } from '../../core/session-inputs.js';
import type { MemoryRecord, TaskRecord } from '../../core/session-records.js';
import { StoreNotFoundError } from '../../core/store-errors.js';
import { type MemoryRow, toRecord as memoryOf, normalizeTags } from '../memories-table.js';
import { fromJson, orNull, requireOneOf, requireText, sqlLimit, statusFilter, textOrNull } from '../rows.js';
import { STATUSES, type TaskRow, toRecord as taskOf } from '../tasks-table.js';
import type { PgContext } from './pg-context.js';
import type { PgConversation } from './pg-conversation.js';
import { pgLimit, statusesIn } from './pg-rows.js';

const MAX_QUERY_WORDS = 32;

/** Text as the word search reads it: lower case, accents taken off (é → e), as SQLite's tokenizer does. */
export function folded(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** A tsquery matching any word of `query` as a word prefix, or undefined when it has no words. */
export function prefixQuery(query: string): string | undefined {
  const words = [...new Set(folded(query).match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, MAX_QUERY_WORDS);
  return words.length === 0 ? undefined : words.map((w) => `${w}:*`).join(' | ');
}

/** What a memory is searched by: its text and tags, folded. */
function searchText(text: string, tags: readonly string[]): string {
  return folded(`${text} ${tags.join(' ')}`);
}

const HAS_TAG = `(@tag::text IS NULL OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(m.tags::jsonb) t WHERE t = @tag))`;

/** Memories (searched through a word vector) and tasks on Postgres. */
export function pgMemoriesTasks(ctx: PgContext, talk: PgConversation) {
  const tagParam = (tag: string | undefined) =>
    textOrNull(tag, 'A memory tag filter')?.trim().toLowerCase() ?? null;
  const getTask = async (id: string): Promise<TaskRecord | undefined> => {
    const row = await ctx.get<TaskRow>('SELECT * FROM tasks WHERE id = ?', [id]);
    return row && taskOf(row);
  };
  return {
    saveMemory(input: NewMemory): Promise<MemoryRecord> {
      const text = requireText(input.text, 'The text to remember').trim();
      const tags = normalizeTags(input.tags);
      return ctx.write(async () => {
        if (input.sessionId !== undefined) await talk.mustExist(input.sessionId);
        const now = ctx.now();
        const known = await ctx.get<MemoryRow>('SELECT * FROM memories WHERE text = ? FOR UPDATE', [text]);
        if (known) {
          const merged = [...new Set([...fromJson<string[]>(known.tags), ...tags])];
          const row = await ctx.get<MemoryRow>(
            'UPDATE memories SET tags = ?, search = ?, updated_at = ? WHERE id = ? RETURNING *',
            [JSON.stringify(merged), searchText(known.text, merged), now, known.id],
          );
          return memoryOf(row as MemoryRow);
        }
        const row = await ctx.get<MemoryRow>(
          `INSERT INTO memories (id, text, tags, session_id, search, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
          [
            ctx.newId('mem'),
            text,
            JSON.stringify(tags),
            orNull(input.sessionId),
            searchText(text, tags),
            now,
            now,
          ],
        );
        return memoryOf(row as MemoryRow);
      });
    },
    async recallMemories(query: string, options: MemoryFilter = {}): Promise<MemoryRecord[]> {
      const match = prefixQuery(requireText(query, 'A recall query'));
      if (match === undefined) {
        throw new InputError(
          `The recall query ${JSON.stringify(query)} has no words to search for; give at least one.`,
        );
      }
      const rows = await ctx.all<MemoryRow>(
        `SELECT m.* FROM memories m, to_tsquery('simple', @match) q
         WHERE m.words @@ q AND ${HAS_TAG}
         ORDER BY ts_rank(m.words, q) DESC, m.updated_at DESC LIMIT @limit`,
        { match, tag: tagParam(options.tag), limit: pgLimit(sqlLimit(options.limit)) },
      );
      return rows.map(memoryOf);
    },
    async listMemories(options: MemoryFilter = {}): Promise<MemoryRecord[]> {
      const rows = await ctx.all<MemoryRow>(
        `SELECT m.* FROM memories m WHERE ${HAS_TAG} ORDER BY m.updated_at DESC, m.n DESC LIMIT @limit`,
        { tag: tagParam(options.tag), limit: pgLimit(sqlLimit(options.limit)) },
      );
      return rows.map(memoryOf);
    },
    async forgetMemory(id: string): Promise<boolean> {
      return (await ctx.run('DELETE FROM memories WHERE id = ?', [id])) === 1;
    },

    createTask(input: NewTask): Promise<TaskRecord> {
      const title = requireText(input.title, 'A task title').trim();
      const status = requireOneOf(input.status ?? 'pending', STATUSES, 'A task status');
      const detail = textOrNull(input.detail, "A task's detail") ?? '';
      return ctx.write(async () => {
        if (input.sessionId !== undefined) await talk.mustExist(input.sessionId);
        const now = ctx.now();
        const row = await ctx.get<TaskRow>(
          `INSERT INTO tasks (id, title, detail, status, session_id, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
          [ctx.newId('task'), title, detail, status, orNull(input.sessionId), now, now],
        );
        return taskOf(row as TaskRow);
      });
    },
    getTask,
    async listTasks(filter: TaskFilter = {}): Promise<TaskRecord[]> {
      const statuses = statusFilter(filter.status, STATUSES, 'Task status');
      const rows = await ctx.all<TaskRow>(
        `SELECT * FROM tasks WHERE (@sessionId::text IS NULL OR session_id = @sessionId)
           ${statuses === null ? '' : `AND ${statusesIn(statuses)}`}
         ORDER BY n`,
        { sessionId: filter.sessionId ?? null },
      );
      return rows.map(taskOf);
    },
    updateTask(id: string, changes: TaskPatch): Promise<TaskRecord> {
      const params = {
        id,
        title: changes.title === undefined ? null : requireText(changes.title, 'A task title').trim(),
        detail: textOrNull(changes.detail, "A task's detail"),
        status: changes.status === undefined ? null : requireOneOf(changes.status, STATUSES, 'A task status'),
        now: ctx.now(),
      };
      return ctx.write(async () => {
        const row = await ctx.get<TaskRow>(
          `UPDATE tasks SET title = coalesce(@title, title), detail = coalesce(@detail, detail),
             status = coalesce(@status, status), updated_at = @now
           WHERE id = @id RETURNING *`,
          params,
        );
        if (row === undefined) throw new StoreNotFoundError('task', id);
        return taskOf(row);
      });
    },
  };
}
