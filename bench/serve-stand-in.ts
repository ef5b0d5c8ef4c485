import { parentPort, workerData } from 'node:worker_threads';
import { startStandIn } from '../src/testing/index.js';

/**
 * The model stand-in of the serve bench, in a worker thread of its own: the server's event loop is
 * measured, not the stand-in's. Each answer is `answer`, streamed `chunkSize` characters at a time,
 * after a delay of up to `spreadMs` (so the sessions' bursts do not all start in the same instant).
 */
const { turns, answer, chunkSize, spreadMs } = workerData as {
  turns: number;
  answer: string;
  chunkSize: number;
  spreadMs: number;
};
const standIn = await startStandIn({ family: 'openai' });
for (let i = 0; i < turns; i++) {
  // a fixed spread, the same on every run
  standIn.push({ text: answer, chunkSize, delayMs: Math.round(((i * 37) % 100) * (spreadMs / 100)) });
}
parentPort?.postMessage({ baseURL: standIn.baseURL });
parentPort?.on('message', async (message: string) => {
  if (message === 'close') {
    await standIn.close();
    parentPort?.close();
  }
});
