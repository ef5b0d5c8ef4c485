// A process whose last work is closing the store just as its worker starts a checkpoint; says "closed".
import { openSessionStore } from '../../../src/store/index.js';
import { CHECKPOINT_EVERY_COMMITS } from '../../../src/store/wal-checkpointer.js';

const [path] = process.argv.slice(2) as [string];
const store = openSessionStore({ path });
for (let i = 0; i < CHECKPOINT_EVERY_COMMITS; i += 1) await store.createSession({ title: `s${i}` });
await store.close();
process.stdout.write('closed\n');
