import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { openSessionStore } from '../../../src/store/index.js';
import { type GatewayStandIn, startWebhookStandIn } from '../../support/gateway-stand-ins.js';
import { TSX_LOADER } from '../../support/tsx-loader.js';

const CHILD = resolve(import.meta.dirname, '../../support/notify-outbox-child.ts');

function child(args: readonly string[]) {
  const proc = spawn(process.execPath, ['--import', TSX_LOADER, CHILD, ...args], { stdio: 'pipe' });
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  onTestFinished(() => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  });
  const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    proc.once('exit', (code, signal) => done({ code, signal })),
  );
  return {
    proc,
    exited,
    async line(): Promise<string> {
      const next = await lines.next();
      if (next.done) throw new Error(`the child ended without a line; stderr:\n${stderr}`);
      return next.value;
    },
  };
}

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('the notify outbox across a SIGKILL', () => {
  it('a process killed mid-send leaves its message pending, and the next process sends exactly that one', async () => {
    const hook: GatewayStandIn = await startWebhookStandIn();
    const dir = mkdtempSync(join(tmpdir(), 'notify-crash-'));
    cleanup.push(
      () => rmSync(dir, { recursive: true, force: true }),
      () => hook.close(),
    );
    const db = join(dir, 'store.db');
    // The first message is answered; the second is held open, and the process is killed while it waits.
    hook.script({ status: 200, body: { id: 'a' } }, { hold: true });
    const first = child(['send', db, hook.base]);
    expect(await first.line()).toBe('SENDING first');
    expect(await first.line()).toBe('RESULT sent');
    expect(await first.line()).toBe('SENDING second');
    await hook.waitForHits(2);
    first.proc.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // Its claim still holds for a while: a process started at once leaves the message alone.
    const soon = child(['drain', db, hook.base]);
    expect(await soon.line()).toBe('DELIVERED 0');
    // A process whose clock is past the dead claim's lease takes it over and sends it.
    const later = child(['drain', db, hook.base, String(10 * 60_000)]);
    expect(await later.line()).toBe('DELIVERED 1');
    await later.exited;

    const texts = hook.hits.map((hit) => JSON.parse(hit.body.toString()).text);
    expect(texts).toEqual(['first', 'second', 'second']);
    // The repeat carries the key of the attempt the kill cut short, so a receiver can drop it.
    expect(hook.hits[2]?.headers['idempotency-key']).toBe(hook.hits[1]?.headers['idempotency-key']);
    const store = openSessionStore({ path: db });
    cleanup.push(() => store.close());
    expect((await store.listOutbox()).map((row) => [row.payload.text, row.status, row.attempts])).toEqual([
      ['first', 'sent', 1],
      ['second', 'sent', 2],
    ]);
  });
});
