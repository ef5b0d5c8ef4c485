import { InputError } from '../core/errors.js';
import type { MemoryFilter, NewMemory } from '../core/session-inputs.js';
import type { MemoryRecord } from '../core/session-records.js';
import { fromJson, iso, limitBy, opt, orNull, requireText, sqlLimit, textOrNull } from './rows.js';
import type { SessionsTable } from './sessions-table.js';
import type { StoreContext } from './store-context.js';

export interface MemoryRow {
  id: string;
  text: string;
  tags: string;
  session_id: string | null;
  created_at: number;
  updated_at: number;
}

const MAX_QUERY_WORDS = 32;

export function toRecord(row: MemoryRow): MemoryRecord {
  return {
    id: row.id,
    text: row.text,
    tags: fromJson<string[]>(row.tags),
    sessionId: opt(row.session_id),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** Tags trimmed, lower-cased, without blanks or repeats. */
export function normalizeTags(tags: readonly string[] | undefined): string[] {
  if (tags === undefined) return [];
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')) {
    throw new InputError('Memory tags must be a list of strings.');
  }
  return [...new Set(tags.map((t) => t.trim().toLowerCase()).filter((t) => t !== ''))];
}

/** An FTS5 query matching any word of `query` (as a word prefix), or undefined when it has no words. */
export function matchQuery(query: string): string | undefined {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, MAX_QUERY_WORDS);
  return words.length === 0 ? undefined : words.map((w) => `"${w}"*`).join(' OR ');
}

/** The memories table and its full-text index. */
export function memoriesTable(ctx: StoreContext, sessions: SessionsTable) {
  const { db } = ctx;
  const insert = db.prepare(
    `INSERT INTO memories (id, text, tags, session_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const byText = db.prepare('SELECT * FROM memories WHERE text = ?');
  const byId = db.prepare('SELECT * FROM memories WHERE id = ?');
  const refresh = db.prepare('UPDATE memories SET tags = ?, updated_at = ? WHERE id = ?');
  const hasTag = `(@tag IS NULL OR EXISTS (SELECT 1 FROM json_each(m.tags) WHERE value = @tag))`;
  const recall = db.prepare(
    `SELECT m.* FROM memories_fts f JOIN memories m ON m.n = f.rowid
     WHERE memories_fts MATCH @match AND ${hasTag}
     ORDER BY bm25(memories_fts), m.updated_at DESC ${limitBy('@limit')}`,
  );
  const list = db.prepare(
    `SELECT m.* FROM memories m WHERE ${hasTag} ORDER BY m.updated_at DESC, m.n DESC ${limitBy('@limit')}`,
  );
  const remove = db.prepare('DELETE FROM memories WHERE id = ?');
  const tagParam = (tag: string | undefined) =>
    textOrNull(tag, 'A memory tag filter')?.trim().toLowerCase() ?? null;

  return {
    save(input: NewMemory) {
      const text = requireText(input.text, 'The text to remember').trim();
      const tags = normalizeTags(input.tags);
      return ctx.write((): MemoryRecord => {
        if (input.sessionId !== undefined) sessions.mustExist(input.sessionId);
        const now = ctx.now();
        const known = byText.get(text) as MemoryRow | undefined;
        if (known) {
          const merged = [...new Set([...fromJson<string[]>(known.tags), ...tags])];
          refresh.run(JSON.stringify(merged), now, known.id);
          return toRecord(byId.get(known.id) as MemoryRow);
        }
        const id = ctx.newId('mem');
        insert.run(id, text, JSON.stringify(tags), orNull(input.sessionId), now, now);
        return toRecord(byId.get(id) as MemoryRow);
      });
    },
    recall(query: string, options: MemoryFilter = {}): MemoryRecord[] {
      const match = matchQuery(requireText(query, 'A recall query'));
      if (match === undefined) {
        throw new InputError(
          `The recall query ${JSON.stringify(query)} has no words to search for; give at least one.`,
        );
      }
      const rows = recall.all({ match, tag: tagParam(options.tag), limit: sqlLimit(options.limit) });
      return (rows as MemoryRow[]).map(toRecord);
    },
    list(options: MemoryFilter = {}): MemoryRecord[] {
      const rows = list.all({ tag: tagParam(options.tag), limit: sqlLimit(options.limit) });
      return (rows as MemoryRow[]).map(toRecord);
    },
    forget(id: string): boolean {
      return remove.run(id).changes === 1;
    },
  };
}
