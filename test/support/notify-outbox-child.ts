// A process with a notifier on a webhook channel. argv: <mode> <dbPath> <webhookBase> [clockSkewMs]
//   send:  sends "first", then "second", printing a line before each (the test kills it during "second")
//   drain: sends what the outbox holds due, then prints how many went
import { openSessionStore } from '../../src/store/index.js';
import { createNotifier } from '../../src/tools/notify/notifier.js';
import { parseNotifyConfig } from '../../src/tools/notify/notify-config.js';

const [mode, dbPath, base, skew] = process.argv.slice(2) as [string, string, string, string | undefined];
const offset = Number(skew ?? 0);
const now = () => Date.now() + offset;
const store = openSessionStore({ path: dbPath, now });
const notifier = createNotifier({
  config: parseNotifyConfig({ channels: { hook: { service: 'webhook', url: `${base}/in` } } }),
  store,
  now,
});
if (mode === 'send') {
  process.stdout.write('SENDING first\n');
  const first = await notifier.send({ text: 'first' });
  process.stdout.write(`RESULT ${first.status}\nSENDING second\n`);
  await notifier.send({ text: 'second' });
} else {
  const sent = await notifier.deliverDue();
  process.stdout.write(`DELIVERED ${sent}\n`);
  await store.close();
}
