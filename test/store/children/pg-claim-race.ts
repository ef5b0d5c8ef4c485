// A process that opens the Postgres store in a schema, says "ready", and on "go" tries to claim one call;
// if it wins it "runs" the tool (a line in a file, then 300 ms, long enough for every rival to try) and
// records the result. Prints {"won": boolean}.
import { appendFileSync } from 'node:fs';
import { openPostgresStore } from '../../../src/store/postgres/index.js';

const [url, schema, turnId, callId, ranFile] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const store = await openPostgresStore({ url, schema });
process.stdout.write('ready\n');
process.stdin.once('data', async () => {
  const won = await store.claimToolCall(turnId, callId, `pid:${process.pid}`);
  if (won) {
    appendFileSync(ranFile, `${process.pid}\n`);
    await new Promise((done) => setTimeout(done, 300));
    await store.recordToolResult(turnId, callId, {
      status: 'done',
      content: `ran in ${process.pid}`,
      isError: false,
    });
  }
  await store.close();
  process.stdout.write(`${JSON.stringify({ won })}\n`);
  process.exit(0);
});
