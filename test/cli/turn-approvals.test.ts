import { createInterface } from 'node:readline/promises';
import { PassThrough } from 'node:stream';
import { describe, expect, it, onTestFinished } from 'vitest';
import { QuestionQueue } from '../../src/cli/question-queue.js';
import { TurnApprovals } from '../../src/cli/turn-approvals.js';
import type { ApprovalDecision, ApprovalRequest } from '../../src/core/approval.js';
import type { GrantScope } from '../../src/core/grant-scope.js';

function request(id: string, leafTitle: string, always?: GrantScope): ApprovalRequest {
  return {
    ...(always === undefined ? {} : { always }),
    id,
    sessionId: 's1',
    turnId: 't1',
    callId: `c-${id}`,
    tool: 'write_file',
    arguments: { path: `${id}.txt` },
    risk: 'caution',
    meaning: 'Approving runs write_file once with the arguments shown.',
    digest: `digest-${id}`,
    createdAt: '2030-01-01T00:00:00.000Z',
    leafTitle,
  };
}

/** A real readline interface over in-memory streams, as the chat builds it over stdin and stderr. */
function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d: Buffer) => {
    shown += d.toString();
  });
  const rl = createInterface({ input, output });
  onTestFinished(() => rl.close());
  const answers: Array<{ id: string; decision: ApprovalDecision }> = [];
  const questions = new QuestionQueue(rl, output);
  const approvals = new TurnApprovals(
    async (id, decision) => answers.push({ id, decision }),
    questions,
    output,
  );
  const until = async (check: () => boolean): Promise<void> => {
    for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 5));
    expect(check()).toBe(true);
  };
  return { input, rl, shown: () => shown, answers, questions, approvals, until };
}

describe('chat approvals at the terminal', () => {
  it('asks two leaves one at a time; one answered elsewhere gives the next line to the other', async () => {
    const t = terminal();
    t.approvals.request(request('ap-1', 'first leaf'));
    t.approvals.request(request('ap-2', 'second leaf'));
    await t.until(() => t.shown().includes('allow?'));
    expect(t.shown()).toContain('ap-1');
    expect(t.shown()).not.toContain('ap-2');

    t.approvals.resolved('ap-1', { kind: 'approve' });
    await t.until(() => t.shown().includes('ap-2'));
    expect(t.shown()).toContain('approval ap-1 is no longer waiting: approved elsewhere');
    t.input.write('y\n');
    await t.until(() => t.answers.length === 1);
    expect(t.answers).toEqual([{ id: 'ap-2', decision: { kind: 'approve' } }]);
  });

  it('two approvals answered `y` twice in one chunk (piped input) both get their answer', async () => {
    const t = terminal();
    t.approvals.request(request('ap-1', 'first leaf'));
    t.approvals.request(request('ap-2', 'second leaf'));
    await t.until(() => t.shown().includes('allow?'));
    t.input.write('y\nn\n');
    await t.until(() => t.answers.length === 2);
    expect(t.answers).toEqual([
      { id: 'ap-1', decision: { kind: 'approve' } },
      { id: 'ap-2', decision: { kind: 'deny' } },
    ]);
    expect(t.shown()).toContain('ap-2');
  });

  it('a reply that is not y, n or a ("yes please", "sure") is asked again, not taken as a refusal; "no, …" refuses with its words', async () => {
    const t = terminal();
    t.approvals.request(request('ap-1', 'first leaf'));
    t.approvals.request(request('ap-2', 'second leaf'));
    await t.until(() => t.shown().includes('allow?'));
    t.input.write('yes please\n');
    await t.until(() => t.shown().includes('"yes please" is not an answer'));
    t.input.write('sure\n');
    await t.until(() => t.shown().includes('"sure" is not an answer'));
    expect(t.answers).toEqual([]);
    expect(t.shown()).not.toContain('ap-2');
    t.input.write('Yes.\n');
    await t.until(() => t.answers.length === 1);
    t.input.write('no, use notes.md\n');
    await t.until(() => t.answers.length === 2);
    expect(t.answers).toEqual([
      { id: 'ap-1', decision: { kind: 'approve' } },
      { id: 'ap-2', decision: { kind: 'deny', reason: 'no, use notes.md' } },
    ]);
  });

  it('"always" is offered with what it covers; a question that shows no scope takes y or n only', async () => {
    const t = terminal();
    const scope: GrantScope = {
      kind: 'folder',
      folder: '/w/notes',
      summary: 'run write_file on files directly in `notes/`',
    };
    t.approvals.request(request('ap-1', 'a leaf', scope));
    t.approvals.request(request('ap-2', 'another leaf'));
    await t.until(() => t.shown().includes('allow? [y]es / [n]o / [a]lways: '));
    expect(t.shown()).toContain(
      '  always: run write_file on files directly in `notes/` in this session without asking',
    );
    t.input.write('a\n');
    await t.until(() => t.answers.length === 1);
    await t.until(() => t.shown().includes('allow? [y]es / [n]o: '));
    expect(t.shown()).toContain('always: not offered');
    t.input.write('always\n');
    await t.until(() => t.shown().includes('"always" is not offered for this question'));
    expect(t.answers).toHaveLength(1);
    t.input.write('y\n');
    await t.until(() => t.answers.length === 2);
    expect(t.answers).toEqual([
      { id: 'ap-1', decision: { kind: 'approve', always: 'session' } },
      { id: 'ap-2', decision: { kind: 'approve' } },
    ]);
  });

  it('withdraws every open question when the turn ends, so the next prompt gets the next line', async () => {
    const t = terminal();
    t.approvals.request(request('ap-1', 'a leaf'));
    t.approvals.request(request('ap-2', 'another leaf'));
    await t.until(() => t.shown().includes('allow?'));
    t.approvals.resolved('ap-1', 'expired');
    t.approvals.close();
    const next = t.questions.ask('next> ');
    await t.until(() => t.shown().endsWith('next> '));
    t.input.write('hello\n');
    expect(await next).toBe('hello');
    expect(t.answers).toEqual([]);
    expect(t.shown()).not.toContain('ap-2');
  });

  it('an approval that arrives after the input closed (piped input run out) is shown before how to answer it', async () => {
    const t = terminal();
    t.input.end();
    t.rl.close();
    t.approvals.request(request('ap-1', 'a leaf'));
    await t.until(() => t.shown().includes('toolseam approve ap-1'));
    const shown = t.shown();
    expect(shown).toContain('write_file wants to run [subagent: a leaf]');
    expect(shown).toContain('"path": "ap-1.txt"');
    expect(shown.indexOf('wants to run')).toBeLessThan(shown.indexOf('toolseam approve ap-1'));
    expect(t.answers).toEqual([]);
  });

  it('a question pending when the input closes ends without an answer instead of holding the queue', async () => {
    const t = terminal();
    const pending = t.questions.ask('first? ');
    const after = t.questions.ask('second? ');
    t.input.end();
    t.rl.close();
    expect(await pending).toBeUndefined();
    expect(await after).toBeUndefined();
  });
});
