import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import type { RuntimeEvent } from '../src/core/events.js';
import { createRuntime } from '../src/create-runtime.js';
import type { Runtime } from '../src/runtime/runtime.js';
import { type StandIn, startStandIn } from '../src/testing/index.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const MODEL_KEY = 'sk-config-model-key-0123456789';
const SERVER_TOKEN = 'ghp_configServerToken0123456789';
const AWS_SECRET = 'aws/secret+ConfigKey0123456789';

async function runtimeOver(data: object): Promise<{ runtime: Runtime; standIn: StandIn }> {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-create-'));
  const file = join(dir, 'toolseam.json');
  writeFileSync(file, JSON.stringify(data, null, 2));
  const config = parseConfig(data, { source: file, baseDir: dir, env: {} });
  const standIn = await startStandIn({
    family: 'openai',
    script: [
      { toolCalls: [{ name: 'read_file', arguments: { path: 'toolseam.json' } }] },
      { echo: 'lastToolResult' },
    ],
  });
  const runtime = await createRuntime({
    model: { ...standIn.modelConfig('stand-in-model'), retry: { maxRetries: 0 } } as never,
    config,
    store: join(dir, 'toolseam.db'),
    subagents: false,
  });
  cleanup = async () => {
    await runtime.close();
    await standIn.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { runtime, standIn };
}

describe('createRuntime: the credentials written in toolseam.json', () => {
  it('are hidden from a tool result that shows the file (the model key, AWS keys, a server token)', async () => {
    const { runtime } = await runtimeOver({
      model: {
        provider: 'openai',
        model: 'gpt-4.1-mini',
        apiKey: MODEL_KEY,
        credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: AWS_SECRET },
      },
      mcpServers: {
        remote: { url: 'http://127.0.0.1:1/mcp', headers: { Authorization: `Bearer ${SERVER_TOKEN}` } },
        local: { command: 'true', env: { NOTES_API_KEY: 'notes-key-0123456789', LANG: 'C.UTF-8' } },
      },
      workspace: ['.'],
    });
    const events: RuntimeEvent[] = [];
    for await (const event of await (await runtime.session('s')).send('show me the config'))
      events.push(event);
    const end = events.find((e) => e.type === 'tool-call-end');
    const content = end?.type === 'tool-call-end' ? end.content : '';
    expect(content).toContain('"apiKey"');
    for (const secret of [MODEL_KEY, SERVER_TOKEN, AWS_SECRET, 'notes-key-0123456789']) {
      expect(content).not.toContain(secret);
    }
    expect(content).toContain('C.UTF-8');
    const start = events.find((e) => e.type === 'turn-start');
    const turnId = start?.type === 'turn-start' ? start.turnId : '';
    const [stored] = await runtime.options.store.listToolCalls({ turnId });
    expect(stored?.result).toBe(content);
  });
});
