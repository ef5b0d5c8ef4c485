import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

/** The task ids a task_list answer shows, in order. */
function idsIn(text: string): string[] {
  return [...text.matchAll(/^- (\S+) \[/gm)].map((m) => m[1] as string);
}

describe('task_list over a long list', () => {
  it('answers in pages that stay inside a result, each telling where the next starts', async () => {
    const detail = 'd'.repeat(300);
    const made: string[] = [];
    for (let i = 0; i < 120; i += 1)
      made.push((await bench.store.createTask({ title: `Task ${i}`, detail })).id);
    const ctx = tools.turn();
    const seen: string[] = [];
    let offset = 0;
    for (let page = 0; page < 10 && offset < made.length; page += 1) {
      const answer = await tools.invoke('task_list', { offset }, ctx);
      expect(answer.isError).toBe(false);
      expect(answer.content.length).toBeLessThan(13_000);
      const ids = idsIn(answer.content);
      expect(ids.length).toBeGreaterThan(0);
      seen.push(...ids);
      const end = offset + ids.length;
      expect(answer.content).toContain(`(Tasks ${offset + 1}–${end} of 120, oldest first.`);
      if (end < made.length)
        expect(answer.content).toContain(`Call task_list with offset ${end} for the next ones.`);
      else expect(answer.content).not.toContain('for the next ones');
      offset = end;
    }
    expect(seen).toEqual(made);
  });

  it('says when the offset is past the end, and lists a short list whole with no footer', async () => {
    const ids = [
      (await bench.store.createTask({ title: 'One' })).id,
      (await bench.store.createTask({ title: 'Two' })).id,
    ];
    const ctx = tools.turn();
    const whole = await tools.invoke('task_list', {}, ctx);
    expect(idsIn(whole.content)).toEqual(ids);
    expect(whole.content).not.toContain('(Tasks');
    const past = await tools.invoke('task_list', { offset: 5 }, ctx);
    expect(past.content).toBe(
      'Offset 5 is past the end: there are 2 such tasks. Call task_list with a smaller offset (0 for the first page).',
    );
    const second = await tools.invoke('task_list', { offset: 1 }, ctx);
    expect(idsIn(second.content)).toEqual([ids[1]]);
    expect(second.content).toContain('(Tasks 2–2 of 2, oldest first.)');
  });
});
