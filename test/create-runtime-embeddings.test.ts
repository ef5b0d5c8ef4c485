import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createRuntime } from '../src/create-runtime.js';
import { type StandIn, startStandIn } from '../src/testing/index.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('createRuntime with "embeddings"', () => {
  it('keeps the tools’ vectors in its store: a second runtime on the file embeds only the request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-vectors-'));
    const standIn: StandIn = await startStandIn({
      family: 'openai',
      script: [{ text: 'first' }, { text: 'second' }],
    });
    cleanup = async () => {
      await standIn.close();
      rmSync(dir, { recursive: true, force: true });
    };
    const config = parseConfig(
      { embeddings: { provider: 'openai-compatible', model: 'vec', baseURL: standIn.baseURL, key: 'k' } },
      { baseDir: dir, env: {} },
    );
    const turn = async (text: string): Promise<void> => {
      const runtime = await createRuntime({
        model: { ...standIn.modelConfig('stand-in-model'), retry: { maxRetries: 0 } } as never,
        config,
        store: join(dir, 'toolseam.db'),
        subagents: false,
        shell: { sandbox: 'off' },
      });
      try {
        for await (const _ of await (await runtime.session('s')).send(text));
      } finally {
        await runtime.close();
      }
    };
    await turn('read a file');
    const first = standIn.embeddingRequests.flatMap((r) => r.texts);
    // The platform's own tools as `{name}: {description}`, then the request.
    expect(first.length).toBeGreaterThan(5);
    expect(first.at(-1)).toBe('read a file');
    const seen = standIn.embeddingRequests.length;
    await turn('write a note');
    expect(standIn.embeddingRequests.slice(seen).flatMap((r) => r.texts)).toEqual(['write a note']);
  });
});
