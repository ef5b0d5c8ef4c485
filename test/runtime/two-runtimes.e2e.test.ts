import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../src/core/events.js';
import { ownerAlive } from '../../src/runtime/resume/turn-owner.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { openSessionStore } from '../../src/store/index.js';
import { createToolRegistry } from '../../src/tools/registry/tool-registry.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const script = [
  { match: { lastUserIncludes: 'archive' }, toolCalls: [{ name: 'archive_mail', arguments: { id: 7 } }] },
  { match: { lastUserIncludes: 'archive' }, echo: 'lastToolResult' as const },
];

/** A second runtime in this process, on the same database file and model as the harness's. */
function secondRuntime(harness: RuntimeHarness, counts: RunCounts): Runtime {
  const registry = createToolRegistry();
  registry.register(demoProvider(counts));
  const store = openSessionStore({ path: harness.dbPath });
  return new Runtime({ model: harness.runtime.options.model, registry, store, workspace: [harness.dir] });
}

describe('two runtimes in one process, on one database', () => {
  it('each owns its turns: the second neither interrupts nor takes over a turn the first is driving', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({ providers: [demoProvider(counts)], script });
    const other = secondRuntime(h, counts);
    try {
      expect(other.owner).not.toBe(h.runtime.owner);
      const events: RuntimeEvent[] = [];
      for await (const event of await (await h.runtime.session('s')).send('archive 7')) {
        events.push(event);
        if (event.type !== 'approval-request') continue;
        const turn = await h.runtime.options.store.getTurn(event.request.turnId);
        expect(turn && ownerAlive(turn)).toBe(true);
        await expect((await other.session('s')).send('archive 8')).rejects.toThrow(/has a turn running/);
        await expect(other.resumeTurn(event.request.turnId)).rejects.toThrow(/still running/);
        expect(await other.orphanedTurns()).toEqual([]);
        await h.runtime.respond(event.request.id, { kind: 'approve' }, { digest: event.request.digest });
      }
      expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'archived 7' });
      expect(counts.get('archive_mail')).toBe(1);
    } finally {
      await other.close();
    }
  });

  it("counts a closed runtime's owner as gone, in this process too", async () => {
    h = await startHarness({ script });
    const other = secondRuntime(h, new Map());
    const owner = other.owner;
    expect(ownerAlive({ owner })).toBe(true);
    await other.close();
    expect(ownerAlive({ owner })).toBe(false);
    expect(ownerAlive({ owner: h.runtime.owner })).toBe(true);
  });

  it('a closed runtime refuses new work, saying so, while another on the same file goes on', async () => {
    h = await startHarness({ script: [{ text: 'still here' }] });
    const other = secondRuntime(h, new Map());
    const session = await other.session('s');
    await other.close();
    const closed = expect.objectContaining({ code: 'runtime_closed' });
    await expect(session.send('hello')).rejects.toThrow(closed);
    await expect(other.session('s')).rejects.toThrow(closed);
    await expect(other.pendingApprovals()).rejects.toThrow(closed);
    expect(turnEnd(await collect(await (await h.runtime.session('s')).send('hello')))).toMatchObject({
      status: 'done',
    });
  });
});
