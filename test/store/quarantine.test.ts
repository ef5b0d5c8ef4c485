import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { StoreNotFoundError } from '../../src/core/store-errors.js';
import { openSessionStore } from '../../src/store/index.js';
import { openTestStore } from './store-fixtures.js';

describe('tool quarantine', () => {
  it('keeps tools per provider and model, lists them by any of the three, and lifts a tool on every model', () => {
    const store = openTestStore();
    const s = store.createSession();
    const on = { provider: 'anthropic', model: 'claude', sessionId: s.id };
    const kept = store.quarantineTools({ ...on, tools: ['mcp/a/x', 'mcp/a/y'], said: 'tools.3 is invalid' });
    expect(kept.map((q) => [q.tool, q.said, q.sessionId])).toEqual([
      ['mcp/a/x', 'tools.3 is invalid', s.id],
      ['mcp/a/y', 'tools.3 is invalid', s.id],
    ]);
    store.quarantineTools({ provider: 'openai', model: 'gpt', tools: ['mcp/a/x'] });
    expect(store.listQuarantined({ provider: 'anthropic' }).map((q) => q.tool)).toEqual([
      'mcp/a/x',
      'mcp/a/y',
    ]);
    expect(store.listQuarantined({ tool: 'mcp/a/x' }).map((q) => q.provider)).toEqual([
      'anthropic',
      'openai',
    ]);
    expect(store.listQuarantined({ provider: 'openai', model: 'other' })).toEqual([]);
    // refused again: one record, the newer words, the first time kept
    const again = store.quarantineTools({ ...on, tools: ['mcp/a/x'], said: 'still invalid' });
    expect(again[0]).toMatchObject({ said: 'still invalid', createdAt: kept[0]?.createdAt });
    expect(store.listQuarantined()).toHaveLength(3);
    const lifted = store.liftQuarantine({ tool: 'mcp/a/x' });
    expect(lifted.map((q) => q.provider)).toEqual(['anthropic', 'openai']);
    expect(store.listQuarantined().map((q) => q.tool)).toEqual(['mcp/a/y']);
    expect(store.liftQuarantine({ tool: 'mcp/a/x' })).toEqual([]);
  });

  it('refuses malformed input, naming it, and a session or turn that does not exist', () => {
    const store = openTestStore();
    expect(() => store.quarantineTools({ provider: 'p', model: 'm', tools: [] })).toThrow(InputError);
    expect(() => store.quarantineTools({ provider: '', model: 'm', tools: ['t'] })).toThrow(/provider/);
    expect(() =>
      store.quarantineTools({ provider: 'p', model: 'm', tools: ['t'], sessionId: 'nope' }),
    ).toThrow(StoreNotFoundError);
    expect(() => store.quarantineTools({ provider: 'p', model: 'm', tools: ['t'], turnId: 'nope' })).toThrow(
      StoreNotFoundError,
    );
    expect(() => store.listQuarantined({ tool: 3 as never })).toThrow(/tool to filter on/);
    expect(store.listQuarantined()).toEqual([]);
  });

  it('survives closing and opening the file again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-quarantine-store-'));
    try {
      const path = join(dir, 't.db');
      const first = openSessionStore({ path });
      first.quarantineTools({ provider: 'bedrock', model: 'nova', tools: ['task_create'], said: 'bad' });
      first.close();
      const second = openSessionStore({ path });
      expect(second.listQuarantined()).toMatchObject([
        { provider: 'bedrock', model: 'nova', tool: 'task_create' },
      ]);
      second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
