import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createModelAdapter } from '../../src/providers/index.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { openSessionStore } from '../../src/store/index.js';
import { startStandIn } from '../../src/testing/index.js';
import { createToolRegistry } from '../../src/tools/registry/tool-registry.js';
import { counterProvider } from '../support/crash-child.js';
import { collect, turnEnd } from '../support/runtime-harness.js';

const child = join(import.meta.dirname, '..', 'support', 'crash-child.ts');

describe('a process killed while an approval waits', () => {
  it('leaves the approval for a new process, which approves it; the turn completes and the tool ran once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-crash-'));
    const dbPath = join(dir, 'toolseam.db');
    const counter = join(dir, 'runs.log');
    const standIn = await startStandIn({
      family: 'openai',
      script: [
        { toolCalls: [{ name: 'append_line', arguments: { text: 'hello' } }] },
        { echo: 'lastToolResult' },
      ],
    });
    const config = { ...standIn.modelConfig(), retry: { maxRetries: 0 } };
    try {
      const proc = spawn(
        process.execPath,
        ['--import', 'tsx', child, dbPath, counter, JSON.stringify(config)],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const approvalId = await new Promise<string>((resolve, reject) => {
        let out = '';
        proc.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /WAITING (\S+)/.exec(out);
          if (m) resolve(m[1] as string);
        });
        proc.on('exit', (code) => reject(new Error(`the child exited (${code}) before asking`)));
      });
      proc.kill('SIGKILL');
      await new Promise((r) => proc.on('exit', r));

      const store = openSessionStore({ path: dbPath });
      const registry = createToolRegistry();
      registry.register(counterProvider(counter));
      const runtime = new Runtime({ model: createModelAdapter(config as never), registry, store });
      const pending = await runtime.pendingApprovals();
      expect(pending.map((a) => a.id)).toEqual([approvalId]);
      expect(pending[0]).toMatchObject({ tool: 'append_line', arguments: { text: 'hello' } });
      const orphans = await runtime.orphanedTurns();
      expect(orphans).toHaveLength(1);

      await runtime.respond(approvalId, { kind: 'approve' }, { digest: pending[0]?.digest as string });
      const events = await collect(await runtime.resumeTurn(orphans[0]?.id as string));
      expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'appended hello' });
      expect(readFileSync(counter, 'utf8')).toBe('hello\n');
      expect((await store.getTurn(orphans[0]?.id as string))?.status).toBe('done');
      await expect(runtime.resumeTurn(orphans[0]?.id as string)).rejects.toThrow(/already ended/);
      await runtime.close();
    } finally {
      await standIn.close();
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    }
  });
});
