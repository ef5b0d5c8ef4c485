import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/create-runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { demoProvider } from '../support/demo-tools.js';
import { collect, turnEnd } from '../support/runtime-harness.js';

// A runtime keeps each session's conversation between requests and reads only what was added since:
// what another runtime (another process, in real use) added to the session must still reach the model.

let dir: string;
const opened: Runtime[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-kept-history-'));
});
afterEach(async () => {
  for (const run of opened.splice(0)) await run.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(model: ScriptedModel): Promise<Runtime> {
  const run = await createRuntime({
    model,
    store: join(dir, 'toolseam.db'),
    builtins: false,
    subagents: false,
    tools: [demoProvider()],
  });
  opened.push(run);
  return run;
}

const weatherIn = (city: string) => [
  { toolCalls: [{ name: 'lookup_weather', arguments: { city } }] },
  { echo: 'lastToolResult' as const },
];

describe('the conversation a runtime keeps between requests', () => {
  it('takes in the turns and messages another runtime added to the session meanwhile', async () => {
    const first = new ScriptedModel([...weatherIn('Oslo'), { text: 'Glad to help.' }]);
    const second = new ScriptedModel(weatherIn('Rome'));
    const a = await start(first);
    const b = await start(second);
    const send = async (run: Runtime, text: string) =>
      turnEnd(await collect(await (await run.session('s')).send(text)));

    expect(await send(a, 'weather in Oslo?')).toMatchObject({ status: 'done', message: 'Sunny in Oslo.' });
    expect(await send(b, 'and in Rome?')).toMatchObject({ status: 'done', message: 'Sunny in Rome.' });
    const store = a.options.store;
    const [turn] = await store.listTurns({ sessionId: 's', status: 'done' });
    await store.appendMessage(turn?.id ?? '', { role: 'assistant', content: 'A note the host added.' });
    expect(await send(a, 'thanks')).toMatchObject({ status: 'done', message: 'Glad to help.' });

    const stored = (await store.listMessages('s')).map((m) => m.message);
    expect(stored.map((m) => m.content)).toEqual([
      'weather in Oslo?',
      '',
      'Sunny in Oslo.',
      'Sunny in Oslo.',
      'and in Rome?',
      '',
      'Sunny in Rome.',
      'Sunny in Rome.',
      'A note the host added.',
      'thanks',
      'Glad to help.',
    ]);
    // The last request carried the whole conversation up to the answer it got.
    expect(first.requests.at(-1)?.messages).toEqual(stored.slice(0, -1));
  });
});
