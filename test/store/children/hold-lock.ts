// A process that takes the store's write lock, says "holding", keeps it for 600 ms, then commits.
import { openSessionStore } from '../../../src/store/index.js';

const [path] = process.argv.slice(2) as [string];
const store = openSessionStore({ path });
// The write runs inside the call, so it is part of the transaction; its promise is awaited after.
const { written } = store.transaction(() => {
  const task = store.createTask({ title: 'written by the lock holder' });
  process.stdout.write('holding\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600);
  return { written: task };
});
await written;
await store.close();
process.stdout.write('released\n');
