import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { StoreNotFoundError } from '../../../src/core/store-errors.js';
import type { StoreSubject } from '../session-store.contract.js';

/** Tools quarantined per provider and model, listed by any of the three, lifted, and kept across connections. */
export function quarantineCases(subject: StoreSubject): void {
  describe('tool quarantine', () => {
    it('keeps tools per provider and model, lists them by any of the three, and lifts a tool on every model', async () => {
      const store = await subject.open();
      const s = await store.createSession();
      const on = { provider: 'anthropic', model: 'claude', sessionId: s.id };
      const kept = await store.quarantineTools({
        ...on,
        tools: ['mcp/a/x', 'mcp/a/y'],
        said: 'tools.3 is invalid',
      });
      expect(kept.map((q) => [q.tool, q.said, q.sessionId])).toEqual([
        ['mcp/a/x', 'tools.3 is invalid', s.id],
        ['mcp/a/y', 'tools.3 is invalid', s.id],
      ]);
      await store.quarantineTools({ provider: 'openai', model: 'gpt', tools: ['mcp/a/x'] });
      expect((await store.listQuarantined({ provider: 'anthropic' })).map((q) => q.tool)).toEqual([
        'mcp/a/x',
        'mcp/a/y',
      ]);
      expect((await store.listQuarantined({ tool: 'mcp/a/x' })).map((q) => q.provider)).toEqual([
        'anthropic',
        'openai',
      ]);
      expect(await store.listQuarantined({ provider: 'openai', model: 'other' })).toEqual([]);
      // refused again: one record, the newer words, the first time kept
      const again = await store.quarantineTools({ ...on, tools: ['mcp/a/x'], said: 'still invalid' });
      expect(again[0]).toMatchObject({ said: 'still invalid', createdAt: kept[0]?.createdAt });
      expect(await store.listQuarantined()).toHaveLength(3);
      const lifted = await store.liftQuarantine({ tool: 'mcp/a/x' });
      expect(lifted.map((q) => q.provider)).toEqual(['anthropic', 'openai']);
      expect((await store.listQuarantined()).map((q) => q.tool)).toEqual(['mcp/a/y']);
      expect(await store.liftQuarantine({ tool: 'mcp/a/x' })).toEqual([]);
    });

    it('refuses malformed input, naming it, and a session or turn that does not exist', async () => {
      const store = await subject.open();
      await expect(store.quarantineTools({ provider: 'p', model: 'm', tools: [] })).rejects.toThrow(
        InputError,
      );
      await expect(store.quarantineTools({ provider: '', model: 'm', tools: ['t'] })).rejects.toThrow(
        /provider/,
      );
      await expect(
        store.quarantineTools({ provider: 'p', model: 'm', tools: ['t'], sessionId: 'nope' }),
      ).rejects.toThrow(StoreNotFoundError);
      await expect(
        store.quarantineTools({ provider: 'p', model: 'm', tools: ['t'], turnId: 'nope' }),
      ).rejects.toThrow(StoreNotFoundError);
      await expect(store.listQuarantined({ tool: 3 as never })).rejects.toThrow(/tool to filter on/);
      expect(await store.listQuarantined()).toEqual([]);
    });

    it('survives closing and opening the database again', async () => {
      const first = await subject.open();
      await first.quarantineTools({
        provider: 'bedrock',
        model: 'nova',
        tools: ['task_create'],
        said: 'bad',
      });
      await first.close();
      const second = await subject.reopen(first);
      expect(await second.listQuarantined()).toMatchObject([
        { provider: 'bedrock', model: 'nova', tool: 'task_create' },
      ]);
    });
  });
}
