import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools, toolsOn } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

describe('memory tools on the SQLite store', () => {
  it('saves, recalls and lists, with tags sent as JSON text', async () => {
    const ctx = tools.turn();
    const saved = await tools.invoke(
      'memory_save',
      { text: '  Sam is allergic to peanuts ', tags: '["family", "Health"]' },
      ctx,
    );
    expect(saved.isError).toBe(false);
    expect(saved.content).toMatch(
      /^Remembered:\n- mem\S+: Sam is allergic to peanuts \[family, health\] \(saved \d{4}-\d\d-\d\d\)$/,
    );
    await tools.invoke('memory_save', { text: 'The office wifi is called Bluebird', tags: ['work'] }, ctx);

    const recalled = await tools.invoke('memory_recall', { query: 'peanut allergy?' }, ctx);
    expect(recalled.content).toContain('Sam is allergic to peanuts');
    expect(recalled.content).not.toContain('Bluebird');
    const tagged = await tools.invoke('memory_recall', { query: 'wifi', tag: 'family' }, ctx);
    expect(tagged.content).toBe('Nothing remembered matches "wifi".');

    const listed = await tools.invoke('memory_list', {}, ctx);
    expect(listed.content.split('\n')).toHaveLength(2);
    expect(listed.content.split('\n')[0]).toContain('Bluebird');
    expect((await tools.invoke('memory_list', { tag: 'work' }, ctx)).content).toContain('Bluebird');
    expect((await tools.invoke('memory_list', { tag: '' }, ctx)).content.split('\n')).toHaveLength(2);
    expect((await tools.invoke('memory_list', { tag: 'nope' }, ctx)).content).toBe(
      'Nothing is remembered with the tag nope.',
    );
    expect((await bench.store.listMemories()).map((m) => m.sessionId)).toEqual([
      bench.sessionId,
      bench.sessionId,
    ]);
  });

  it('refreshes a memory saved twice instead of repeating it', async () => {
    const ctx = tools.turn();
    await tools.invoke('memory_save', { text: 'Prefers tea', tags: ['drinks'] }, ctx);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await tools.invoke('memory_save', { text: 'Prefers tea', tags: ['mornings'] }, ctx);
    expect(again.content).toMatch(/^Already remembered; refreshed:\n- \S+: Prefers tea \[drinks, mornings\]/);
    expect(await bench.store.listMemories()).toHaveLength(1);
  });

  it('refuses blank text and a query with no words, in preflight and invoke alike', async () => {
    const ctx = tools.turn();
    const blank = await tools.preflight('memory_save', { text: '   ' }, ctx);
    expect(blank?.content).toBe('text: is empty; it needs at least 1');
    const wordless = await tools.preflight('memory_recall', { query: '?!' }, ctx);
    expect(wordless).toMatchObject({ isError: true, data: { code: 'no_words' } });
    expect(await tools.invoke('memory_recall', { query: '?!' }, ctx)).toEqual(wordless);
  });
});

describe('task tools on the SQLite store', () => {
  it('creates tasks from a list sent as JSON text, lists and updates them', async () => {
    const ctx = tools.turn();
    const created = await tools.invoke(
      'task_create',
      { tasks: '[{"title": "Book the dentist"}, {"title": "Renew passport", "detail": "before June"}]' },
      ctx,
    );
    expect(created.isError).toBe(false);
    const ids = (await bench.store.listTasks()).map((t) => t.id);
    expect(created.content).toBe(
      `Added 2 tasks:\n- ${ids[0]} [pending] Book the dentist\n- ${ids[1]} [pending] Renew passport — before June`,
    );
    const updated = await tools.invoke('task_update', { id: ids[0], status: 'completed' }, ctx);
    expect(updated.content).toBe(`Updated:\n- ${ids[0]} [completed] Book the dentist`);

    const pending = await tools.invoke('task_list', { status: '["pending", "in_progress"]' }, ctx);
    expect(pending.content).toBe(`- ${ids[1]} [pending] Renew passport — before June`);
    expect((await tools.invoke('task_list', {}, ctx)).content.split('\n')).toHaveLength(2);
    expect((await tools.invoke('task_list', { status: ['cancelled'] }, ctx)).content).toBe(
      'No task is cancelled.',
    );
  });

  it('lists only this conversation’s tasks with scope session', async () => {
    const other = (await bench.store.createSession({ title: 'another' })).id;
    await bench.store.createTask({ title: 'From elsewhere', sessionId: other });
    const ctx = tools.turn();
    await tools.invoke('task_create', { tasks: [{ title: 'From here' }] }, ctx);
    const mine = await tools.invoke('task_list', { scope: 'session' }, ctx);
    expect(mine.content).toMatch(/^- \S+ \[pending\] From here$/);
    expect((await tools.invoke('task_list', { scope: 'all' }, ctx)).content.split('\n')).toHaveLength(2);
  });

  it('refuses an update naming no change or no task, and an empty or unknown status', async () => {
    const ctx = tools.turn();
    const task = await bench.store.createTask({ title: 'Water the plants' });
    const none = await tools.preflight('task_update', { id: task.id }, ctx);
    expect(none?.content).toBe('task_update names no change: give a new title, detail or status.');
    const unknown = await tools.preflight('task_update', { id: 'task_missing', status: 'completed' }, ctx);
    expect(unknown).toMatchObject({
      data: { code: 'unknown_task' },
      hints: ['Call task_list to see the ids.'],
    });
    expect(await tools.invoke('task_update', { id: 'task_missing', status: 'completed' }, ctx)).toEqual(
      unknown,
    );
    const badStatus = await tools.invoke('task_update', { id: task.id, status: 'done' }, ctx);
    expect(badStatus.content).toBe(
      'status: "done" is not one of: pending, in_progress, completed, cancelled',
    );
    const empty = await tools.invoke('task_create', { tasks: '[]' }, ctx);
    expect(empty.content).toBe('tasks: has 0 items; it needs at least 1');
    expect((await bench.store.getTask(task.id))?.status).toBe('pending');
  });
});

describe('ask_user', () => {
  it('puts the question and choices to the person and returns the answer', async () => {
    const asked: unknown[] = [];
    const hosted = toolsOn(bench, {
      askUser: async (question, choices) => {
        asked.push({ question, choices });
        return 'the blue one';
      },
    });
    const result = await hosted.invoke(
      'ask_user',
      { question: 'Which colour?', choices: '["red", "blue"]' },
      hosted.turn(),
    );
    expect(result).toEqual({ content: 'The person answered: the blue one', isError: false });
    expect(asked).toEqual([{ question: 'Which colour?', choices: ['red', 'blue'] }]);
  });

  it('tells the model to carry on when the person gives no answer', async () => {
    const hosted = toolsOn(bench, { askUser: async () => undefined });
    const result = await hosted.invoke('ask_user', { question: 'Anything else?' }, hosted.turn());
    expect(result.isError).toBe(false);
    expect(result.content).toContain('did not answer');
  });

  it('refuses clearly in an unattended run, so the model carries on', async () => {
    const ctx = tools.turn();
    const checked = await tools.preflight('ask_user', { question: 'Proceed?' }, ctx);
    expect(checked).toMatchObject({ isError: true, notRun: 'refused_by_tool', data: { code: 'unattended' } });
    expect(checked?.content).toBe(
      'Nobody can be asked: this run is unattended, so the question was not put to anyone.',
    );
    expect(checked?.hints).toEqual(['Carry on with your best judgement and say which assumptions you made.']);
    expect(await tools.invoke('ask_user', { question: 'Proceed?' }, ctx)).toEqual(checked);
  });
});
