import { describe, expect, it } from 'vitest';
import {
  type BatchFinding,
  batchRefusal,
  type CompileOptions,
  compileBatch,
  SUBAGENT_RUN_DEFINITION,
} from '../../../src/runtime/subagents/index.js';
import { portabilityDefects } from '../../../src/tools/index.js';

const OPTIONS: CompileOptions = {
  knownAgents: ['Researcher', 'Writer'],
  base: '/work/space',
  home: '/home/me',
};

/** A full, valid contract; override any key. */
function leaf(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    task: 'Read the unread mail in the inbox',
    title: 'Inbox',
    objective: 'Every unread mail is listed with its sender',
    output_format: 'A bullet list, one mail per line',
    boundary: 'Read only; do not answer or archive mail',
    ...over,
  };
}

function compile(args: Record<string, unknown>, options: Partial<CompileOptions> = {}) {
  return compileBatch(args, { ...OPTIONS, ...options });
}

function codes(findings: readonly BatchFinding[]): string[] {
  return findings.map((f) => f.code);
}

describe('the batch compiler', () => {
  it('compiles a batch of full contracts into leaves, inferring the capability from writes', () => {
    const out = compile({
      tasks: [
        leaf(),
        leaf({ title: 'Summary', capability: 'mutating', writes: ['notes/summary.md'] }),
        leaf({ title: 'Draft', writes: 'drafts' }),
      ],
      agents: ['Researcher', 'Writer', ''],
    });
    expect(out.ok).toBe(true);
    expect(out.findings).toEqual([]);
    expect(out.leaves.map((l) => [l.title, l.agent, l.contract.capability, l.contract.writes])).toEqual([
      ['Inbox', 'Researcher', 'research', []],
      ['Summary', 'Writer', 'mutating', ['notes/summary.md']],
      ['Draft', undefined, 'mutating', ['drafts']],
    ]);
  });

  it('runs one plain-text task alone with default declarations and a title made from it', () => {
    const out = compile({ task: 'check the calendar for tomorrow' });
    expect(out.ok).toBe(true);
    expect(out.leaves).toHaveLength(1);
    expect(out.leaves[0]?.title).toBe('check the calendar for tomorrow');
    expect(out.leaves[0]?.contract.objective.length).toBeGreaterThanOrEqual(12);
    expect(out.leaves[0]?.contract.capability).toBe('research');
  });

  it('no_task: neither task nor tasks (nor an empty list, nor blank text)', () => {
    for (const args of [{}, { tasks: [] }, { task: '  ' }, { tasks: '[]' }]) {
      const out = compile(args);
      expect(out.ok).toBe(false);
      expect(codes(out.findings)).toEqual(['no_task']);
      expect(out.findings[0]?.fix).toMatch(/"task"/);
    }
  });

  it('task_and_tasks: both given', () => {
    expect(codes(compile({ task: 'one thing', tasks: [leaf(), leaf({ title: 'B' })] }).findings)).toEqual([
      'task_and_tasks',
    ]);
  });

  it('unknown_argument names the accepted arguments and a near miss', () => {
    const out = compile({ task: 'check mail today', agent: ['Researcher'], priority: 'high' });
    expect(codes(out.findings)).toEqual(['unknown_argument', 'unknown_argument']);
    expect(out.findings[0]?.message).toContain('task, tasks, agents');
    expect(out.findings[0]?.fix).toContain('"agents"');
  });

  it('argument_type: tasks or agents that are not lists', () => {
    expect(codes(compile({ tasks: 5 }).findings)).toEqual(['argument_type']);
    const out = compile({ tasks: [leaf(), leaf({ title: 'B' })], agents: [1, 'Writer'] });
    expect(codes(out.findings)).toEqual(['argument_type']);
    expect(out.findings[0]?.message).toContain('the number 1');
  });

  it('agents_mismatch: one agent for two tasks', () => {
    const out = compile({ tasks: [leaf(), leaf({ title: 'Calendar' })], agents: ['Researcher'] });
    expect(codes(out.findings)).toEqual(['agents_mismatch']);
    expect(out.findings[0]?.message).toBe('"agents" names 1 agent for 2 tasks.');
  });

  it('too_many_leaves: more than 24', () => {
    const tasks = Array.from({ length: 25 }, (_, i) => leaf({ title: `Leaf ${i}` }));
    const out = compile({ tasks });
    expect(codes(out.findings)).toEqual(['too_many_leaves']);
    expect(out.findings[0]?.message).toContain('25 leaves');
    expect(compile({ tasks: tasks.slice(0, 24) }).ok).toBe(true);
  });

  it('leaf_contract_missing: plain-text tasks in a batch, one finding per leaf naming what is missing', () => {
    const out = compile({ tasks: ['check the inbox', 'check the calendar'] });
    expect(out.ok).toBe(false);
    expect(codes(out.findings)).toEqual(['leaf_contract_missing', 'leaf_contract_missing']);
    expect(out.findings.map((f) => f.leaf)).toEqual([0, 1]);
    expect(out.findings[0]?.message).toBe(
      'it does not declare its title, objective, output_format and boundary.',
    );
    expect(compile({ tasks: [leaf({ task: '' }), leaf({ title: 'B' })] }).findings[0]?.message).toBe(
      'it does not declare its task.',
    );
  });

  it('leaf_contract_thin: a declaration under 12 characters, even on a lone leaf', () => {
    const out = compile({
      tasks: [leaf({ objective: 'list them', boundary: 'read only' }), leaf({ title: 'B' })],
    });
    expect(codes(out.findings)).toEqual(['leaf_contract_thin', 'leaf_contract_thin']);
    expect(out.findings[0]?.message).toContain('objective "list them" is under 12 characters');
    expect(codes(compile({ task: leaf({ output_format: 'bullets' }) }).findings)).toEqual([
      'leaf_contract_thin',
    ]);
    expect(compile({ tasks: [leaf({ objective: 'exactly 12 c' }), leaf({ title: 'B' })] }).ok).toBe(true);
  });

  it('leaf_title_long: a title is a short name', () => {
    const out = compile({ tasks: [leaf({ title: 'x'.repeat(81) }), leaf({ title: 'B' })] });
    expect(codes(out.findings)).toEqual(['leaf_title_long']);
  });

  it('research_leaf_writes: a research leaf that declares writes', () => {
    const out = compile({
      tasks: [leaf({ capability: 'research', writes: ['notes'] }), leaf({ title: 'B' })],
    });
    expect(codes(out.findings)).toEqual(['research_leaf_writes']);
    expect(out.findings[0]?.leaf).toBe(0);
  });

  it('write_off_limits: a write inside an off-limits path, relative, absolute or under ~', () => {
    const out = compile({
      tasks: [
        leaf({ capability: 'mutating', writes: ['notes/taxes/2024.md'], off_limits: ['notes/taxes'] }),
        leaf({
          title: 'B',
          capability: 'mutating',
          writes: ['/work/space/drafts/a.md'],
          off_limits: ['drafts/'],
        }),
        leaf({ title: 'C', capability: 'mutating', writes: ['~/docs/x'], off_limits: ['/home/me/docs'] }),
        leaf({
          title: 'D',
          capability: 'mutating',
          writes: ['notes/taxes-old'],
          off_limits: ['notes/taxes'],
        }),
      ],
    });
    expect(codes(out.findings)).toEqual(['write_off_limits', 'write_off_limits', 'write_off_limits']);
    expect(out.findings.map((f) => f.leaf)).toEqual([0, 1, 2]);
  });

  it('unknown_agent: a name the configuration does not know, listing the known ones', () => {
    const out = compile({ tasks: [leaf(), leaf({ title: 'B' })], agents: ['Researcher', 'Butler'] });
    expect(codes(out.findings)).toEqual(['unknown_agent']);
    expect(out.findings[0]?.leaf).toBe(1);
    expect(out.findings[0]?.message).toContain('known agents: Researcher, Writer');
    expect(
      compile({ task: 'check mail today', agents: ['Butler'] }, { knownAgents: [] }).findings[0]?.message,
    ).toContain('none are configured');
  });

  it('nested_batch: a call made from inside a leaf', () => {
    const out = compile({ task: 'check the calendar' }, { nested: true });
    expect(codes(out.findings)).toEqual(['nested_batch']);
  });

  it('leaf_declaration_type: declarations of the wrong type, and an item that is no leaf', () => {
    const out = compile({
      tasks: [
        leaf({ objective: 5, capability: 'maybe', writes: 7, off_limits: ['ok', 3] }),
        42,
        '{"task": broken',
      ],
    });
    expect(codes(out.findings)).toEqual(Array(6).fill('leaf_declaration_type'));
    const messages = out.findings.map((f) => f.message);
    expect(messages[0]).toBe('its objective is the number 5, not text.');
    expect(messages[1]).toBe('its capability is "maybe".');
    expect(out.findings[1]?.fix).toContain('"research"');
    expect(messages[2]).toContain('writes is the number 7, not a list');
    expect(messages[3]).toContain('off_limits has item 2 that is the number 3');
    expect(messages[4]).toContain('the number 42');
    expect(messages[5]).toContain('not a readable JSON object');
  });

  it('leaf_declaration_unknown: names the accepted keys (off_limits among them) and a near miss', () => {
    const out = compile({
      tasks: [leaf({ outputFormat: 'a list', deadline: 'today' }), leaf({ title: 'B' })],
    });
    expect(codes(out.findings)).toEqual(['leaf_declaration_unknown', 'leaf_declaration_unknown']);
    expect(out.findings[0]?.message).toContain(
      'task, title, objective, output_format, boundary, capability, writes, off_limits',
    );
    expect(out.findings[0]?.fix).toContain('"output_format"');
  });

  it('multi_writer: two leaves writing the same path (or one inside the other) is a warning, not a refusal', () => {
    const out = compile({
      tasks: [
        leaf({ capability: 'mutating', writes: ['notes/summary.md'] }),
        leaf({ title: 'B', capability: 'mutating', writes: ['./notes'] }),
        leaf({ title: 'C', capability: 'mutating', writes: ['drafts'] }),
      ],
    });
    expect(out.ok).toBe(true);
    expect(out.findings).toEqual([
      expect.objectContaining({ code: 'multi_writer', severity: 'warning', leaf: 1 }),
    ]);
    expect(out.leaves).toHaveLength(3);
  });

  it('reads lists sent as text: tasks and agents as JSON text, writes as one plain path or JSON text', () => {
    const out = compile({
      tasks: JSON.stringify([
        leaf({ writes: 'notes/a.md' }),
        JSON.stringify(leaf({ title: 'B', writes: '["x", "y"]' })),
      ]),
      agents: '["Researcher", "Writer"]',
    });
    expect(out.ok).toBe(true);
    expect(out.leaves.map((l) => l.contract.writes)).toEqual([['notes/a.md'], ['x', 'y']]);
    expect(out.leaves.map((l) => l.agent)).toEqual(['Researcher', 'Writer']);
    expect(compile({ tasks: [leaf(), leaf({ title: 'B' })], agents: 'Researcher' }).findings[0]?.code).toBe(
      'agents_mismatch',
    );
  });

  it('reports every finding at once, ordered by leaf', () => {
    const out = compile(
      {
        tasks: ['check the inbox', leaf({ title: 'B', capability: 'research', writes: ['a'], extra: 1 })],
        agents: ['Nobody', 'Writer'],
        bogus: true,
      },
      { nested: true },
    );
    expect(codes(out.findings)).toEqual([
      'nested_batch',
      'unknown_argument',
      'unknown_agent',
      'leaf_contract_missing',
      'leaf_declaration_unknown',
      'research_leaf_writes',
    ]);
  });

  it('the refusal lists every finding with its code, leaf title and fix, and says how to send a batch', () => {
    const out = compile({ tasks: [leaf({ objective: 'short' }), 'check the calendar'] });
    const refusal = batchRefusal(out);
    expect(refusal.isError).toBe(true);
    const lines = refusal.content.split('\n');
    expect(lines[0]).toMatch(
      /^Error: subagent_run started nothing: the batch did not compile \(2 problems\)/,
    );
    expect(lines[1]).toMatch(/^- \[leaf_contract_thin\] leaf 1 \("Inbox"\): its objective "short" .* Fix: /);
    expect(lines[2]).toMatch(/^- \[leaf_contract_missing\] leaf 2: it does not declare its title/);
    expect(refusal.hints?.[0]).toContain('"off_limits"');
    expect((refusal.data as { findings: BatchFinding[] }).findings).toHaveLength(2);
  });

  it('offers a definition that is portable as declared', () => {
    expect(portabilityDefects([SUBAGENT_RUN_DEFINITION])).toEqual([]);
    expect(SUBAGENT_RUN_DEFINITION.requiresApproval).toBe(false);
  });
});
