import { parseArgs } from 'node:util';
import { InputError } from '../core/errors.js';
import { defaultDatabasePath } from '../store/default-path.js';
import { openStore } from '../store/index.js';
import { createNotifier, type NotifyResult } from '../tools/notify/notifier.js';
import type { Command } from './command.js';
import { configFromFlags, databasePathFrom, existingDatabaseFrom, noDatabaseYet } from './config-flags.js';
import { visibleLines } from './visible-text.js';

const USAGE = `usage: toolseam notify test CHANNEL [--text TEXT] [--config FILE] [--db FILE|URL]
       toolseam notify outbox [--json] [--config FILE] [--db FILE|URL]
       toolseam notify deliver [--config FILE] [--db FILE|URL]

test sends a test message through a channel of "notify" in toolseam.json (--config FILE names
another), as the notify tool would: the channel's dry run first (its limits, its credentials,
Telegram's chat), then the message goes through the outbox of the session database (--db, a SQLite file or a postgres:// URL, else the
config's "db", else the default). Exit 0 when it was delivered; 1 when it was refused or is still
waiting in the outbox (a rate limit, the service down), which toolseam then sends when it next runs.
outbox lists the messages not delivered: waiting (with when they are tried next and why), refused
and given up. deliver sends the waiting messages that are due now, once (for a system scheduler).`;

function report(result: NotifyResult): { readonly code: number; readonly text: string } {
  switch (result.status) {
    case 'sent':
      return {
        code: 0,
        text: `sent to ${result.channel}${result.receipt ? ` (message ${result.receipt})` : ''}`,
      };
    case 'queued':
      return {
        code: 1,
        text: `not delivered yet: ${result.reason}\nit stays in the outbox (${result.id}); toolseam sends it from ${result.retryAt} on, the next time it runs`,
      };
    case 'refused':
      return {
        code: 1,
        text: [`refused: ${result.refusal.message}`, ...(result.refusal.hints ?? [])].join('\n'),
      };
    case 'failed':
      return { code: 1, text: `failed: ${result.error}` };
  }
}

interface Flags {
  readonly config?: string | undefined;
  readonly db?: string | undefined;
  readonly json?: boolean | undefined;
}

async function listOutbox(flags: Flags): Promise<number> {
  // Listing must not make a database: with none yet, nothing is waiting.
  const db = existingDatabaseFrom(flags);
  if (!db.exists) {
    process.stdout.write(
      flags.json ? '{\n  "messages": []\n}\n' : `nothing waiting: ${noDatabaseYet(db)}.\n`,
    );
    return 0;
  }
  const store = await openStore(db.path);
  try {
    const rows = (await store.listOutbox()).filter((row) => row.status !== 'sent');
    if (flags.json) {
      process.stdout.write(`${visibleLines(JSON.stringify({ messages: rows }, null, 2))}\n`);
      return 0;
    }
    if (rows.length === 0) {
      process.stdout.write(`nothing waiting in the notify outbox (${store.path})\n`);
      return 0;
    }
    const lines = rows.map((row) => {
      const text = String(row.payload.text ?? '')
        .replace(/\s+/g, ' ')
        .slice(0, 60);
      const when = row.status === 'pending' ? `next try ${row.nextAttemptAt}` : row.status;
      const why = row.lastError ? `: ${row.lastError}` : '';
      return `  ${row.id}  ${row.channel}  ${when}, ${row.attempts} attempt(s)${why}\n      "${text}"`;
    });
    process.stdout.write(`${visibleLines([`notify outbox (${store.path}):`, ...lines].join('\n'))}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

async function deliverDue(flags: Flags): Promise<number> {
  const config = configFromFlags(flags);
  if (config.notify === undefined) {
    throw new InputError(
      `${config.file ?? 'there is no toolseam.json here, so there'} has no "notify" section, so nothing can be delivered.`,
    );
  }
  const store = await openStore(databasePathFrom(flags, config) ?? defaultDatabasePath());
  const notifier = createNotifier({ config: config.notify, store });
  try {
    const sent = await notifier.deliverDue();
    const waiting = (await store.listOutbox({ status: 'pending' })).length;
    process.stdout.write(`delivered ${sent}; ${waiting} still waiting\n`);
    return 0;
  } finally {
    await notifier.close();
    await store.close();
  }
}

/** `toolseam notify test CHANNEL`, `notify outbox`, `notify deliver`: the owner channel from the command line. */
export const notifyCommand: Command = async (argv) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      text: { type: 'string' },
      config: { type: 'string' },
      db: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [verb, channel, ...rest] = positionals;
  if (verb === 'outbox' || verb === 'deliver') {
    if (channel !== undefined)
      throw new InputError(
        `notify ${verb} takes no more words, but got "${positionals.slice(1).join(' ')}".`,
      );
    return verb === 'outbox' ? listOutbox(values) : deliverDue(values);
  }
  if (verb !== 'test' || channel === undefined || rest.length > 0) {
    throw new InputError(
      `notify takes "test CHANNEL"${positionals.length > 0 ? `, not "${positionals.join(' ')}"` : ''}.\n${USAGE}`,
    );
  }
  const config = configFromFlags(values);
  if (config.notify === undefined) {
    throw new InputError(
      `${config.file ?? 'there is no toolseam.json here, so there'} has no "notify" section: add one with the channel to test.`,
    );
  }
  const store = await openStore(databasePathFrom(values, config) ?? defaultDatabasePath());
  const notifier = createNotifier({ config: config.notify, store });
  try {
    const text =
      values.text ?? `toolseam test message for channel ${channel}, sent ${new Date().toISOString()}`;
    const outcome = report(await notifier.send({ channel, text, origin: 'cli:notify-test' }));
    (outcome.code === 0 ? process.stdout : process.stderr).write(`${visibleLines(outcome.text)}\n`);
    return outcome.code;
  } finally {
    await notifier.close();
    await store.close();
  }
};
