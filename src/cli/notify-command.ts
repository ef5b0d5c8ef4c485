import { parseArgs } from 'node:util';
import { InputError } from '../core/errors.js';
import { defaultDatabasePath } from '../store/default-path.js';
import { openSessionStore } from '../store/index.js';
import { createNotifier, type NotifyResult } from '../tools/notify/notifier.js';
import type { Command } from './command.js';
import { configFromFlags, databasePathFrom } from './config-flags.js';
import { visibleLines } from './visible-text.js';

const USAGE = `usage: toolseam notify test CHANNEL [--text TEXT] [--config FILE] [--db FILE]

Sends a test message through a channel of "notify" in toolseam.json (--config FILE names another),
as the notify tool would: the channel's dry run first (its limits, its credentials, Telegram's chat),
then the message goes through the outbox of the session database (--db, else the config's "db", else
the default). Exit 0 when it was delivered; 1 when it was refused or is still waiting in the outbox
(a rate limit, the service down), which toolseam then sends when it next runs.`;

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

/** `toolseam notify test CHANNEL`: one test message through a configured channel. */
export const notifyCommand: Command = async (argv) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      text: { type: 'string' },
      config: { type: 'string' },
      db: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [verb, channel, ...rest] = positionals;
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
  const store = openSessionStore({ path: databasePathFrom(values, config) ?? defaultDatabasePath() });
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
