import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import type { Logger, LogRecord } from '../src/core/logger.js';
import { createRuntime } from '../src/create-runtime.js';
import { startStandIn } from '../src/testing/index.js';

let dir: string;
let runs = 0;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-create-runtime-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** How many tools one turn's request offers, with `model` in toolseam.json and the runtime on a stand-in. */
async function toolsOffered(model: Record<string, unknown> | undefined): Promise<number> {
  const standIn = await startStandIn({ family: 'openai', script: [{ text: 'Hello.' }] });
  const config = parseConfig(model ? { model } : {}, { source: 'toolseam.json', baseDir: dir, env: {} });
  runs += 1;
  const runtime = await createRuntime({
    model: { provider: 'openai-compatible', model: 'demo', baseURL: standIn.baseURL, apiKey: 'stand-in' },
    config,
    store: join(dir, `run-${runs}.db`),
  });
  try {
    for await (const _event of await (await runtime.session()).send('hi')) {
      // the turn runs to its end
    }
    const body = standIn.requests[0]?.body as { tools?: unknown[] } | undefined;
    return body?.tools?.length ?? 0;
  } finally {
    await runtime.close();
    await standIn.close();
  }
}

describe("createRuntime: the config's context window", () => {
  it('bounds the schemas only when the config\'s "model" is the model the runtime talks to', async () => {
    const unbounded = await toolsOffered(undefined);
    const small = { contextWindow: 1000 };
    const here = await toolsOffered({ provider: 'openai-compatible', model: 'demo', ...small });
    expect(here).toBeLessThan(unbounded);
    expect(await toolsOffered({ model: 'demo', ...small })).toBe(here);
    // a config for Anthropic, set aside for the model the runtime was given: its window too
    expect(await toolsOffered({ provider: 'anthropic', model: 'claude-sonnet-4-5', ...small })).toBe(
      unbounded,
    );
  });
});

describe('createRuntime: where no sandbox can start', () => {
  it('offers no bash and says why in one warning', async () => {
    const standIn = await startStandIn({ family: 'openai', script: [{ text: 'Hello.' }] });
    const lines: LogRecord[] = [];
    const logger: Logger = { log: (line) => lines.push(line), once: () => undefined };
    const runtime = await createRuntime({
      model: { provider: 'openai-compatible', model: 'demo', baseURL: standIn.baseURL, apiKey: 'stand-in' },
      store: join(dir, 'run.db'),
      shell: { bwrap: join(dir, 'no-such-bwrap') },
      logger,
    });
    try {
      for await (const _event of await (await runtime.session()).send('hi')) {
        // the turn runs to its end
      }
      const body = standIn.requests[0]?.body as
        | { tools?: Array<{ function?: { name?: string } }> }
        | undefined;
      const names = (body?.tools ?? []).map((tool) => tool.function?.name);
      expect(names).toContain('read_file');
      expect(names).not.toContain('bash');
      const warnings = lines.filter((line) => line.level === 'warn' && line.message.includes('bash'));
      expect(warnings.map((line) => line.message)).toEqual([
        `bash is not offered: no sandbox can start here (the bubblewrap program ${join(dir, 'no-such-bwrap')} does not exist or cannot be run). To offer it unconfined, set "shell": {"sandbox": "off"} in toolseam.json.`,
      ]);
    } finally {
      await runtime.close();
      await standIn.close();
    }
  });
});
