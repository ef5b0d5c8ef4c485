import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import type { StoreSubject } from '../session-store.contract.js';

/** A person's tool switches: one per tool, numbered across connections, listed since a position. */
export function toolSwitchCases(subject: StoreSubject): void {
  describe('tool switches', () => {
    it('keeps one switch per tool, the last flip winning, each flip numbered above every earlier one', async () => {
      let now = Date.parse('2030-01-01T00:00:00.000Z');
      const store = await subject.open({ now: () => now });
      expect(await store.listToolSwitches()).toEqual([]);
      const off = await store.setToolSwitch({ tool: 'mcp/notes/search', on: false, by: 'cli' });
      expect(off).toEqual({
        tool: 'mcp/notes/search',
        on: false,
        seq: 1,
        changedAt: '2030-01-01T00:00:00.000Z',
        changedBy: 'cli',
      });
      now += 1000;
      await store.setToolSwitch({ tool: 'send_email', on: false });
      now += 1000;
      const back = await store.setToolSwitch({ tool: 'mcp/notes/search', on: true, by: 'page' });
      expect(back).toMatchObject({
        on: true,
        seq: 3,
        changedBy: 'page',
        changedAt: '2030-01-01T00:00:02.000Z',
      });
      expect((await store.listToolSwitches()).map((s) => [s.tool, s.on, s.seq])).toEqual([
        ['send_email', false, 2],
        ['mcp/notes/search', true, 3],
      ]);
      expect((await store.listToolSwitches({ afterSeq: 2 })).map((s) => s.tool)).toEqual([
        'mcp/notes/search',
      ]);
      expect(await store.listToolSwitches({ afterSeq: 3 })).toEqual([]);
      // every flip is on the trail, with who flipped it
      expect((await store.listAudit({ kind: 'tool.switched' })).map((a) => a.detail)).toEqual([
        { tool: 'mcp/notes/search', on: false, by: 'cli', seq: 1 },
        { tool: 'send_email', on: false, by: null, seq: 2 },
        { tool: 'mcp/notes/search', on: true, by: 'page', seq: 3 },
      ]);
    });

    it('numbers a flip made on another connection above what this one wrote, and this one reads it', async () => {
      const store = await subject.open();
      const other = await subject.reopen(store);
      const mine = await store.setToolSwitch({ tool: 'a', on: false });
      const theirs = await other.setToolSwitch({ tool: 'b', on: false });
      expect(theirs.seq).toBeGreaterThan(mine.seq);
      expect((await store.listToolSwitches({ afterSeq: mine.seq })).map((s) => s.tool)).toEqual(['b']);
    });

    it('refuses a switch without a tool or an on/off, and a position that is not a whole number', async () => {
      const store = await subject.open();
      await expect(store.setToolSwitch({ tool: '', on: false })).rejects.toThrow(InputError);
      await expect(store.setToolSwitch({ tool: 'a', on: 'yes' as never })).rejects.toThrow(
        /on \(true\) or off/,
      );
      await expect(store.listToolSwitches({ afterSeq: -1 })).rejects.toThrow(InputError);
      expect(await store.listToolSwitches()).toEqual([]);
    });
  });
}
