import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

const dir = mkdtempSync(join(tmpdir(), 'toolseam-retrieval-'));

function write(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

const small = write('small.json', {
  dataset: 'small',
  tools: [
    {
      name: 'weather_lookup',
      description: 'Current weather and forecast for a city.',
      parameters: null,
      group: null,
    },
    {
      name: 'currency_convert',
      description: 'Convert money between currencies.',
      parameters: null,
      group: 'money',
    },
    {
      name: 'send_email',
      description: 'Send an email message.',
      parameters: { type: 'object', properties: { to: { type: 'string' } } },
    },
  ],
  queries: [
    {
      id: '1',
      query: 'will it rain in Oslo tomorrow? forecast please',
      gold: ['weather_lookup'],
      split: 'dev',
    },
    { id: '2', query: 'convert 20 euros to dollars', gold: ['currency_convert'], split: 'heldout' },
    { id: '3', query: 'email my boss', gold: ['send_email'], split: 'heldout' },
  ],
});
const other = write('other.json', {
  dataset: 'other',
  tools: [{ name: 'stock_price', description: 'Price of a stock.' }],
  queries: [],
});

/** Runs the CLI, capturing what it prints. */
async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  const code = await main(['retrieval', ...args]);
  vi.restoreAllMocks();
  return { code, out, err };
}

afterEach(() => vi.restoreAllMocks());

describe('toolseam retrieval eval', () => {
  it('prints the figures as one JSON object with the documented keys', async () => {
    const { code, out } = await run(['eval', small, '--split', 'heldout', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(Object.keys(report).sort()).toEqual(
      [
        'build_ms',
        'c@10',
        'ndcg@10',
        'p50_ms',
        'p95_ms',
        'queries',
        'recall@10',
        'recall@48',
        'recall@5',
        'tools',
      ].sort(),
    );
    expect(report).toMatchObject({ queries: 2, tools: 3, 'recall@5': 100, 'c@10': 100 });
  });

  it('reads the split asked for, merges pools and honours --k', async () => {
    const dev = JSON.parse((await run(['eval', small, '--split', 'dev', '--json'])).out);
    expect(dev.queries).toBe(1);
    const all = JSON.parse(
      (await run(['eval', small, '--split', 'all', '--k', '2', '--json', '--pool', other])).out,
    );
    expect(all).toMatchObject({ queries: 3, tools: 4 });
    expect(all['recall@2']).toBe(100);
    const table = (await run(['eval', small, '--baseline'])).out;
    expect(table).toMatch(/plain BM25/);
    expect(table).toMatch(/nDCG@10 +\d/);
  });

  it('reads --flag=value like every other command, and eval --help prints the usage', async () => {
    const spaced = JSON.parse(
      (await run(['eval', small, '--split', 'all', '--k', '2', '--json', '--pool', other])).out,
    );
    const joined = await run(['eval', small, '--split=all', '--k=2', '--json', `--pool=${other}`]);
    expect(joined.code).toBe(0);
    const { build_ms: _b, p50_ms: _p, p95_ms: _q, ...figures } = spaced;
    expect(JSON.parse(joined.out)).toMatchObject(figures);
    const help = await run(['eval', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^usage: toolseam retrieval eval FILE/);
  });

  it('reports the dev and the heldout split side by side unless told one', async () => {
    const table = (await run(['eval', small])).out;
    expect(table).toMatch(/^small\n +dev +heldout\n/);
    expect(table).toMatch(/queries +1 +2\n/);
    const both = JSON.parse((await run(['eval', small, '--json'])).out);
    expect(Object.keys(both)).toEqual(['dev', 'heldout']);
    expect(both.dev).toMatchObject({ queries: 1 });
    const alone = JSON.parse((await run(['eval', small, '--split', 'heldout', '--json'])).out);
    // Everything but the timings, which differ run to run.
    const { build_ms, p50_ms, p95_ms, ...figures } = alone;
    expect(both.heldout).toMatchObject(figures);
    expect((await run(['eval', small, '--split', 'dev'])).out).not.toMatch(/heldout/);
  });

  it('says Recall@K reads the ranking alone, not the tools a turn offers', async () => {
    const { out } = await run(['--help']);
    expect(out).not.toMatch(/tools offered per turn/);
    expect(out).toMatch(/the ranking alone,\s+without the schema budget/);
  });

  it('refuses bad input with a clear line and exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['eval'], /name the dataset FILE/],
      [['eval', join(dir, 'missing.json')], /cannot read dataset/],
      [['eval', write('bad.json', '{oops')], /is not JSON/],
      [
        [
          'eval',
          write('nogold.json', {
            tools: [{ name: 'a' }],
            queries: [{ query: 'q', gold: ['b'], split: 'dev' }],
          }),
        ],
        /gold tool "b"/,
      ],
      [
        [
          'eval',
          write('emptygold.json', {
            tools: [{ name: 'a' }],
            queries: [{ query: 'q', gold: [], split: 'dev' }],
          }),
        ],
        /empty "gold" list/,
      ],
      [['eval', small, '--split', 'test'], /--split must be dev, heldout or all/],
      [['eval', small, '--k', 'many'], /--k must be a whole number/],
      [['eval', small, '--frobnicate'], /Unknown option '--frobnicate'.*toolseam retrieval --help/],
      [['eval', other], /no queries in the "dev" split/],
      [['eval', other, '--split', 'heldout'], /no queries in the "heldout" split/],
      [['compare'], /unknown subcommand "compare"/],
    ];
    for (const [args, message] of cases) {
      const { code, err } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(err).toMatch(message);
    }
  });
});

describe('retrieval eval --leave-out', () => {
  it('needs two datasets or more', async () => {
    const { code, err } = await run(['eval', small, '--leave-out', 'small']);
    expect(code).not.toBe(0);
    expect(err).toMatch(/--leave-out needs at least two dataset FILEs/);
  });

  it('refuses a name that is not one of the datasets given', async () => {
    const { code, err } = await run(['eval', small, other, '--leave-out', 'nope']);
    expect(code).not.toBe(0);
    expect(err).toMatch(/names a dataset given \(small, other\) or "all"/);
  });
});
