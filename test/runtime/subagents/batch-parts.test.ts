import { describe, expect, it } from 'vitest';
import type { BatchRecord, LeafRecord } from '../../../src/core/session-store.js';
import { globMatch } from '../../../src/runtime/glob-match.js';
import { batchResult, compileBatch, leafGrants, leafPrompt } from '../../../src/runtime/subagents/index.js';
import { contract } from './subagent-fixtures.js';

function leafRecord(index: number, over: Partial<LeafRecord>): LeafRecord {
  return {
    id: `leaf-${index}`,
    batchId: 'b-1',
    index,
    title: `Leaf ${index}`,
    contract: { task: 't', output_format: 'A numbered list of findings' },
    status: 'done',
    errors: [],
    ...over,
  };
}

function batchOf(leaves: LeafRecord[]): BatchRecord {
  return { id: 'b-1', parentSessionId: 'p', title: '', status: 'done', createdAt: '', leaves };
}

describe('leaf grants', () => {
  it('grant every served tool by its exact name except orchestration and reserved tools', () => {
    const grants = leafGrants([
      'read_file',
      'subagent_run',
      'workflow_start',
      'reset_tools',
      'odd*name',
      'read_file',
    ]);
    expect(grants).toEqual(['read_file', 'odd[*]name']);
    expect(grants.some((g) => globMatch(g, 'odd*name'))).toBe(true);
    expect(grants.some((g) => globMatch(g, 'odd-other-name'))).toBe(false);
  });
});

describe('the batch result', () => {
  it('gives each leaf its status, its output under the declared format, and its errors', () => {
    const result = batchResult(
      batchOf([
        leafRecord(0, { output: '1. inbox is empty' }),
        leafRecord(1, { status: 'timed_out', errors: ['it ran out of time'] }),
      ]),
      [],
      20_000,
    );
    expect(result.isError).toBe(false);
    expect(result.content).toBe(
      [
        'Batch b-1: 2 leaves (1 done, 1 timed out).',
        '',
        '## 1. Leaf 0: done',
        'Output (declared format: A numbered list of findings):',
        '1. inbox is empty',
        '',
        '## 2. Leaf 1: timed out',
        'Errors:',
        '- it ran out of time',
      ].join('\n'),
    );
    expect(result.data).toMatchObject({
      batchId: 'b-1',
      leaves: [{ status: 'done' }, { status: 'timed_out' }],
    });
  });

  it('shares the budget so one long output cannot crowd out the others; no leaf done is an error', () => {
    const long = 'x'.repeat(50_000);
    const result = batchResult(
      batchOf([leafRecord(0, { output: long }), leafRecord(1, { output: 'short' })]),
      [],
      20_000,
    );
    expect(result.content.length).toBeLessThan(20_000);
    expect(result.content).toContain('[this output was cut to');
    // the leaf's whole output stays stored: the note names the tool and the id that read it
    expect(result.content).toMatch(/characters; call tool_result_read with id "leaf:[^"]+:0" to read it\]/);
    expect(result.content).toContain('short');
    const failed = batchResult(batchOf([leafRecord(0, { status: 'failed', errors: ['no'] })]), [], 20_000);
    expect(failed.isError).toBe(true);
  });
});

describe('the batch result within its limit', () => {
  it('shows every leaf of a full batch, cutting outputs (long first), never leaving a leaf out', () => {
    const format = `A report: ${'with many sections, '.repeat(9)}`;
    const leaves = Array.from({ length: 24 }, (_, i) =>
      leafRecord(i, {
        contract: { task: 't', output_format: format },
        output: i === 3 ? 'short answer' : `finding ${i} `.repeat(300),
        errors: i % 5 === 0 ? [`leaf ${i} hit a snag: ${'x'.repeat(1_000)}`] : [],
      }),
    );
    const result = batchResult(batchOf(leaves), [], 8_000);
    expect(result.content.length).toBeLessThanOrEqual(8_000);
    for (let i = 0; i < 24; i += 1) expect(result.content).toContain(`## ${i + 1}. Leaf ${i}: done`);
    expect(result.content).toContain('short answer');
    expect(result.content).toContain('leaf 20 hit a snag');
    expect(result.content).toContain('[this output was cut to');
  });

  it('shortens the errors of many failed leaves so every leaf is still shown within the limit', () => {
    const why = (k: number) =>
      `mcp/mail/search: the mail server refused the connection (${k}) ${'x'.repeat(180)}`;
    const leaves = Array.from({ length: 24 }, (_, i) =>
      leafRecord(i, {
        status: 'failed',
        errors: [`leaf ${i} failed first`, ...[1, 2, 3, 4, 5].map(why), 'and 7 more tool errors'],
      }),
    );
    for (const limit of [20_000, 8_000]) {
      const result = batchResult(batchOf(leaves), [], limit);
      expect(result.content.length).toBeLessThanOrEqual(limit);
      for (let i = 0; i < 24; i += 1) {
        expect(result.content).toContain(`## ${i + 1}. Leaf ${i}: failed`);
        expect(result.content).toContain(`- leaf ${i} failed first`);
      }
    }
    expect(batchResult(batchOf(leaves), [], 8_000).content).toContain('- and 5 more, not shown for room');
  });
});

describe('the batch warnings within the limit', () => {
  it('shows the overlapping-writes warnings of a full batch, each leaf first, and counts the rest', () => {
    // Leaf 0 writes the whole folder; every other leaf writes 40 files inside it.
    const tasks = Array.from({ length: 24 }, (_, i) =>
      contract(`Write part ${i} of the report`, `Part ${i}`, {
        capability: 'mutating',
        writes:
          i === 0 ? ['report'] : Array.from({ length: 40 }, (_, j) => `report/part-${i}/section-${j}.md`),
      }),
    );
    const compiled = compileBatch({ tasks }, { knownAgents: [], base: '/work' });
    const warnings = compiled.findings.filter((f) => f.severity === 'warning');
    expect(warnings).toHaveLength(23 * 40);
    const leaves = compiled.leaves.map((l) =>
      leafRecord(l.index, { title: l.title, output: `part ${l.index} written` }),
    );
    for (const limit of [20_000, 8_000]) {
      const result = batchResult(batchOf(leaves), warnings, limit);
      expect(result.content.length).toBeLessThanOrEqual(limit);
      for (let i = 0; i < 24; i += 1) {
        expect(result.content).toContain(`## ${i + 1}. Part ${i}: done\n`);
        expect(result.content).toContain(`part ${i} written`);
      }
      expect(result.content).toMatch(/\n- and \d+ more warnings \(multi_writer\), not shown for room\n/);
    }
    // Every leaf's first overlap is named before any leaf's second, and every warning is shown or counted.
    const { content } = batchResult(batchOf(leaves), warnings, 20_000);
    const shown = content.split('\n').filter((line) => line.startsWith('- [multi_writer]'));
    expect(shown.length).toBeGreaterThan(10);
    shown.forEach((line, k) => {
      expect(line).toContain(`leaf ${k + 2} ("Part ${k + 1}"): it writes report/part-${k + 1}/section-0.md,`);
    });
    expect(content).toContain(`- and ${warnings.length - shown.length} more warnings (multi_writer)`);
  });

  it('shortens one very long warning', () => {
    const path = `notes/${'deep/'.repeat(2_000)}file.md`;
    const tasks = [0, 1].map((i) =>
      contract(`Write note ${i} of the week`, `Note ${i}`, { capability: 'mutating', writes: [path] }),
    );
    const compiled = compileBatch({ tasks }, { knownAgents: [], base: '/work' });
    const leaves = compiled.leaves.map((l) => leafRecord(l.index, { title: l.title, output: 'noted' }));
    const result = batchResult(batchOf(leaves), compiled.findings, 8_000);
    expect(result.content.length).toBeLessThanOrEqual(8_000);
    expect(result.content).toContain('- [multi_writer] (warning) leaf 2 ("Note 1"): it writes notes/deep/');
    expect(result.content).toContain(
      '## 2. Note 1: done\nOutput (declared format: A numbered list of findings):\nnoted',
    );
  });
});

describe('the leaf prompt', () => {
  it('spells out the contract, and what a leaf may change', () => {
    const prompt = leafPrompt('Draft', {
      task: 'Draft the summary',
      objective: 'A summary of the week exists',
      output_format: 'The path of the file written',
      boundary: 'Only the summary file',
      capability: 'mutating',
      writes: ['notes/summary.md'],
      off_limits: ['notes/private'],
    });
    expect(prompt).toContain('Task: Draft the summary');
    expect(prompt).toContain('only inside: notes/summary.md');
    expect(prompt).toContain('Never change anything inside: notes/private');
  });
});
