// A process that asks for an approval, then opens a write transaction it never commits and blocks
// there, so the test can read alongside it and then kill it with SIGKILL.
import type { PostgresSessionStore, SqliteSessionStore } from '../../../src/store/index.js';
import { isPostgresUrl, openStore } from '../../../src/store/index.js';

// A SQLite file, or a postgres:// URL (with ?schema=).
const [path] = process.argv.slice(2) as [string];
const store = await openStore(path);
const session = await store.createSession({ title: 'crash test' });
const turn = await store.startTurn({
  sessionId: session.id,
  userText: 'delete the old backups',
  owner: `pid:${process.pid}`,
});
const args = { path: 'backups/2019' };
await store.recordModelReply(turn.id, {
  content: 'I will remove them.',
  calls: [
    {
      id: 'call-1',
      tool: 'bash',
      wireName: 'bash',
      rawArguments: JSON.stringify(args),
      arguments: args,
      digest: 'digest-of-call-1',
    },
  ],
});
const approval = await store.requestApproval({
  turnId: turn.id,
  callId: 'call-1',
  risk: 'destructive',
  meaning: 'Deletes backups/2019',
});
process.stdout.write(`${JSON.stringify({ approvalId: approval.id, turnId: turn.id })}\n`);

if (isPostgresUrl(path)) {
  // The transaction stays open on the server until the connection drops with this process.
  await (store as PostgresSessionStore).transaction(async () => {
    await store.audit({ kind: 'never.committed', sessionId: session.id });
    process.stdout.write('holding\n');
    await new Promise(() => undefined); // waits until killed
  });
} else {
  (store as SqliteSessionStore).transaction(() => {
    void store.audit({ kind: 'never.committed', sessionId: session.id });
    process.stdout.write('holding\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); // sleeps until killed
  });
}
