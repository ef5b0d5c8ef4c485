import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { toolseamInProcess, toolseamInProcessWithoutKeys } from './toolseam-in-process.js';

let dir: string;
let standIn: StandIn | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-model-flags-'));
});
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('the model a command talks to', () => {
  it("--provider naming another provider than the config's sets the config's model, key and headers aside", async () => {
    const anthropic = {
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      apiKey: 'sk-ant-config-key',
      headers: { 'anthropic-beta': 'prompt-caching' },
    };
    writeFileSync(join(dir, 'toolseam.json'), JSON.stringify({ model: anthropic }));
    standIn = await startStandIn({ family: 'openai', script: [{ text: 'Hello.' }] });
    const other = ['chat', '--provider', 'openai-compatible', '--base-url', standIn.baseURL];
    const db = ['--db', join(dir, 't.db')];

    // Claude's model id is no model id for this server: one is asked for, and nothing is sent.
    const noModel = await toolseamInProcessWithoutKeys([...other, '-m', 'hi', ...db], dir);
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toMatch(/give a model id for openai-compatible with --model/);
    expect(standIn.requests).toHaveLength(0);

    const r = await toolseamInProcessWithoutKeys([...other, '--model', 'demo', '-m', 'hi', ...db], dir);
    expect(r.code).toBe(0);
    const [request] = standIn.requests;
    expect(request?.headers.authorization).not.toContain('sk-ant-config-key');
    expect(request?.headers['anthropic-beta']).toBeUndefined();
  });

  it("the config's settings still apply when the flags name its provider", async () => {
    standIn = await startStandIn({ family: 'openai', script: [{ text: 'Hello.' }] });
    const config = {
      provider: 'openai-compatible',
      model: 'demo',
      apiKey: 'local-key',
      baseURL: standIn.baseURL,
    };
    writeFileSync(join(dir, 'toolseam.json'), JSON.stringify({ model: config }));
    const r = await toolseamInProcessWithoutKeys(
      ['chat', '--provider', 'openai-compatible', '-m', 'hi', '--db', join(dir, 't.db')],
      dir,
    );
    expect(r.code).toBe(0);
    expect(standIn.requests[0]?.headers.authorization).toBe('Bearer local-key');
    expect(standIn.requests[0]?.body).toMatchObject({ model: 'demo' });
  });
});

describe('--verbose, which chat, approve and resume accept', () => {
  it.each(['chat', 'approve', 'resume'])(
    'is in the usage line and explained in `toolseam %s --help`',
    async (command) => {
      const r = await toolseamInProcess([command, '--help'], dir);
      expect(r.code).toBe(0);
      const usage = r.stdout.split('\n\n')[0] ?? '';
      expect(usage).toContain('[--verbose]');
      expect(r.stdout).toMatch(/^ {2}--verbose {2,}also print toolseam's info log lines on stderr/m);
    },
  );

  it("is in the README's commands table for each of them, with what it shows", () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const rows = readme.split('\n').filter((l) => l.startsWith('| `toolseam '));
    for (const command of ['chat', 'approve', 'resume']) {
      const row = rows.find((l) => l.startsWith(`| \`toolseam ${command} `));
      expect(row, command).toContain('[--verbose]');
    }
    expect(rows.find((l) => l.startsWith('| `toolseam sessions '))).not.toContain('--verbose');
    expect(readme).toMatch(/`--verbose` also prints toolseam's info log lines/);
  });
});
