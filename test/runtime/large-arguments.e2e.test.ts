import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { readArguments } from '../../src/runtime/calls/read-arguments.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import {
  assistantsOf,
  callEnds,
  collect,
  type RuntimeHarness,
  startHarness,
  turnEnd,
} from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a call whose arguments are longer than a call may carry', () => {
  for (const family of ['openai', 'anthropic', 'bedrock'] as const) {
    it(`is answered with the limit and what to do, never run, asked about or kept whole (${family})`, async () => {
      const counts: RunCounts = new Map();
      const body = 'y'.repeat(3_000);
      h = await startHarness({
        family,
        limits: { argumentChars: 2_000 },
        providers: [demoProvider(counts)],
        script: [
          {
            chunkSize: 4_096,
            toolCalls: [
              { name: 'send_email', arguments: { to: 'ann@example.com', body } },
              { name: 'lookup_weather', arguments: { city: 'Oslo' } },
            ],
          },
          { text: 'I will send it in parts.' },
          { text: 'Done.' },
        ],
      });
      const session = await h.runtime.session('s');
      const events = await collect(await session.send('send the long mail'));
      expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'I will send it in parts.' });
      expect(events.some((e) => e.type === 'approval-request')).toBe(false);
      const [refused, ran] = callEnds(events);
      expect(refused).toMatchObject({ tool: 'send_email', isError: true, notRun: 'unreadable_arguments' });
      expect(refused?.content).toMatch(
        /its arguments are 3,0\d\d characters long, past the 2,000 one call may carry, so they were not read or kept\. Send the content in parts of under 2,000 characters/,
      );
      expect(ran).toMatchObject({ tool: 'lookup_weather', isError: false });
      expect(counts.get('send_email') ?? 0).toBe(0);

      await collect(await session.send('and?'));
      const [call] = assistantsOf(h.standIn.requests[2]?.messages)[0]?.toolCalls ?? [];
      expect(call?.arguments.length).toBeLessThanOrEqual(2_001);

      const db = new Database(h.dbPath, { readonly: true });
      try {
        const rows = db
          .prepare(
            'SELECT tool_name, raw_arguments, arguments, arguments_as_raw FROM tool_calls ORDER BY rowid',
          )
          .all() as {
          tool_name: string;
          raw_arguments: string;
          arguments: string | null;
          arguments_as_raw: number;
        }[];
        expect(rows[0]?.raw_arguments).toMatch(/^\{"to":"ann@example\.com","body":"y+…$/);
        expect(rows[0]?.raw_arguments.length).toBe(2_001);
        expect(rows[0]?.arguments).toBeNull();
        // what is kept never reads as arguments: a resumed turn answers the call again, never runs it
        expect(readArguments(rows[0]?.raw_arguments ?? '').ok).toBe(false);
        // the call that was read keeps its arguments once: as the text the model sent
        expect(rows[1]).toEqual({
          tool_name: 'lookup_weather',
          raw_arguments: '{"city":"Oslo"}',
          arguments: null,
          arguments_as_raw: 1,
        });
      } finally {
        db.close();
      }
    });
  }
});
