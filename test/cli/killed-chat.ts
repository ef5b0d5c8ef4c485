import { openSessionStore } from '../../src/store/index.js';
import type { StandIn } from '../../src/testing/index.js';
import { spawnToolseam, until } from './spawn-toolseam.js';

/** Runs `chat -m` in `dir` on stand-in `a` (model "demo") and kills it while its approval waits. */
export async function chatKilledWhileWaiting(a: StandIn, db: string, dir: string) {
  const chat = spawnToolseam(
    ['chat', '-m', 'save a note', '--base-url', a.baseURL, '--model', 'demo', '--db', db],
    dir,
  );
  await until('the approval', () => /approve ap-\S+ yes/.test(chat.stdout()));
  const id = /approve (ap-\S+) yes/.exec(chat.stdout())?.[1] as string;
  chat.proc.kill('SIGKILL');
  await chat.done;
  const store = openSessionStore({ path: db });
  const turnId = (await store.getApproval(id))?.turnId as string;
  await store.close();
  return { id, turnId };
}
