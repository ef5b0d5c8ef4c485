import { parseArgs } from 'node:util';
import { InputError } from '../core/errors.js';
import { isPastDeadline, type ListedSession } from '../core/session-records.js';
import type { SessionStore } from '../core/session-store.js';
import { resumableTurns } from '../runtime/resume/leaf-turns.js';
import { openStore } from '../store/index.js';
import type { Command } from './command.js';
import { compactionRows, compactionsOf } from './compaction-rows.js';
import { existingDatabaseFrom, noDatabaseYet } from './config-flags.js';
import { alwaysOffer, answerWords, oneLineOf, shortArgs } from './event-printer.js';
import { grantRows } from './grant-rows.js';
import { negativeValuesJoined } from './negative-values.js';
import { visible, visibleLines } from './visible-text.js';

const USAGE = `usage: toolseam sessions [--db FILE|URL] [--config FILE] [--limit N] [--all] [--json]

Lists sessions (newest first; the 50 most recent unless --limit says how many, 0 for all), the
approvals waiting for an answer (each with what "always" would cover), the standing permissions
"always" gave (\`toolseam grants\` withdraws one), subagent batches not finished, and turns whose
process stopped while they were unfinished (--json: sessions, pendingApprovals, grants,
unfinishedBatches, interruptedTurns, compactions), and the sessions whose older turns were
summarized to fit the model's context window. The
database (a SQLite file, or a postgres:// URL) is --db, else "db" in the config (--config FILE or ./toolseam.json), else $TOOLSEAM_DB,
else the default; a file named one of these ways must exist (toolseam chat creates it).

The sessions listed are the ones a person started; one whose subagent batches ran leaves says how many
child sessions they left ("+2 subagent sessions"). --all lists those child sessions too, each under the
session that ran it (--json: each with its parentSessionId). --limit counts the sessions a person started.`;

/** `toolseam sessions`: sessions, pending approvals, unfinished subagent batches and interrupted turns. */
export const sessionsCommand: Command = async (argv) => {
  const { values } = parseArgs({
    args: negativeValuesJoined(argv, ['limit']),
    options: {
      db: { type: 'string' },
      config: { type: 'string' },
      json: { type: 'boolean' },
      limit: { type: 'string' },
      all: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const limit = limitFrom(values.limit);
  const db = existingDatabaseFrom(values);
  // Listing must not make a database: with none yet there is nothing to list, and the person is told where we looked.
  if (!db.exists) {
    if (values.json) {
      const empty = {
        sessions: [],
        pendingApprovals: [],
        grants: [],
        unfinishedBatches: [],
        interruptedTurns: [],
      };
      process.stdout.write(`${JSON.stringify(empty, null, 2)}\n`);
    } else {
      process.stdout.write(`no sessions yet: ${noDatabaseYet(db)}\n`);
    }
    return 0;
  }
  const store = await openStore(db.path);
  try {
    const started = await store.listSessions({ topLevel: true, ...(limit === 0 ? {} : { limit }) });
    // A subagent leaf's child session goes under its parent, and only when asked for.
    const sessions: ListedSession[] = [];
    for (const s of started) sessions.push(...(values.all ? await withChildren(store, s) : [s]));
    // One past its deadline can no longer be answered (its turn resumes without it).
    const pending = (await store.listApprovals({ status: 'pending' })).filter((a) => !isPastDeadline(a));
    // A subagent leaf's turn resumes with its batch, through the parent turn listed here.
    const orphaned = await resumableTurns(store);
    const batches = await store.listBatches({ unfinished: true });
    const grants = await store.listGrants({ allSessions: true });
    const compactions = await compactionsOf(store, sessions);
    if (values.json) {
      const listed = {
        sessions,
        pendingApprovals: pending,
        grants,
        unfinishedBatches: batches,
        interruptedTurns: orphaned,
        compactions,
      };
      process.stdout.write(`${visibleLines(JSON.stringify(listed, null, 2))}\n`);
      return 0;
    }
    const lines = [`sessions (${store.path}):`];
    if (sessions.length === 0) lines.push('  none yet — start one with `toolseam chat`');
    for (const s of sessions) lines.push(sessionRow(s));
    lines.push('', 'approvals waiting for an answer:');
    if (pending.length === 0) lines.push('  none');
    for (const a of pending) {
      lines.push(
        `  ${visible(a.id)}  ${visible(a.tool)} ${shortArgs(a.arguments)}  (session ${visible(a.sessionId)}, asked ${a.createdAt})`,
      );
      if (a.notice !== undefined) lines.push(`      note: ${oneLineOf(a.notice, 400)}`);
      lines.push(`      ${alwaysOffer(a)}`);
      lines.push(`      answer: toolseam approve ${visible(a.id)} ${answerWords(a)}`);
    }
    lines.push('', 'standing permissions ("always"):');
    lines.push(...grantRows(grants));
    if (batches.length > 0) {
      lines.push('', 'subagent batches not finished:');
      for (const b of batches) {
        const left = b.leaves.filter((l) => l.status === 'queued' || l.status === 'running').length;
        lines.push(
          `  ${visible(b.id)}  ${oneLineOf(b.title, 80)}  (${left} of ${b.leaves.length} leaves left; parent turn ${visible(b.turnId ?? '?')})`,
        );
      }
    }
    if (orphaned.length > 0) {
      lines.push('', 'turns interrupted when their process stopped:');
      for (const t of orphaned) {
        lines.push(
          `  ${visible(t.id)}  session ${visible(t.sessionId)}  "${oneLineOf(t.userText, 60)}"  (${t.status})`,
        );
        lines.push(`      resume: toolseam resume ${visible(t.id)}`);
      }
      lines.push(
        '  (resume goes on with the model the turn started on; `toolseam chat --session ID` moves on instead)',
      );
    }
    const summarized = compactionRows(compactions);
    if (summarized.length > 0)
      lines.push('', 'sessions summarized to fit the context window:', ...summarized);
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await store.close();
  }
};

/** `session` followed by the child sessions its subagent batches ran (most recently used first). */
async function withChildren(store: SessionStore, session: ListedSession): Promise<ListedSession[]> {
  if (session.childSessions === 0) return [session];
  return [session, ...(await store.listSessions({ parentSessionId: session.id }))];
}

/** A session's row: a child session indented under its parent, a parent with how many children it has. */
function sessionRow(s: ListedSession): string {
  const title = oneLineOf(s.title, 80) || '(untitled)';
  if (s.parentSessionId !== undefined) return `    ↳ ${visible(s.id)}  ${s.updatedAt}  ${title}`;
  const children =
    s.childSessions === 0
      ? ''
      : `  (+${s.childSessions} subagent session${s.childSessions === 1 ? '' : 's'})`;
  return `  ${visible(s.id)}  ${s.updatedAt}  ${title}${children}`;
}

/** How many sessions to list: 50 unless `--limit` says (0: every one). */
function limitFrom(text: string | undefined): number {
  if (text === undefined) return 50;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) {
    throw new InputError(`--limit takes how many sessions to list (0 for all), not "${text}".`);
  }
  return n;
}
