import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnToolseam, until } from './spawn-toolseam.js';
import { toolseamInProcess } from './toolseam-in-process.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-quarantine-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** No AWS setting of the machine's reaches the children: Bedrock on loopback goes with placeholders. */
const NO_AWS = Object.fromEntries(
  Object.keys(process.env)
    .filter((k) => k.startsWith('AWS_'))
    .map((k) => [k, undefined]),
);

const CASES = [
  { family: 'openai', provider: [], said: "Invalid schema for function 'task_create'" },
  { family: 'bedrock', provider: ['--provider', 'bedrock'], said: 'toolConfig.tools.' },
] as const;

// Each case starts a stand-in and six toolseam processes: a busy machine takes its time.
describe('one bad tool never takes down a turn: `toolseam dev-provider --reject` and the toolseam command', {
  timeout: 240_000,
}, () => {
  for (const c of CASES) {
    it(`${c.family}: chat goes on without the refused tool, tools shows it quarantined, tools --on lifts it`, async () => {
      writeFileSync(
        join(dir, 'script.json'),
        JSON.stringify([{ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'Third answer.' }]),
      );
      const server = spawnToolseam(
        [
          'dev-provider',
          '--family',
          c.family,
          '--port',
          '0',
          '--reject',
          'task_create',
          '--script',
          'script.json',
        ],
        dir,
      );
      const env = { ...NO_AWS, HOME: dir };
      const db = join(dir, 't.db');
      try {
        await until('the stand-in to listen', () => /base URL at (\S+);/.test(server.stdout()));
        const baseURL = /base URL at (\S+);/.exec(server.stdout())?.[1] as string;
        const chat = (text: string) =>
          toolseamInProcess(
            ['chat', ...c.provider, '--base-url', baseURL, '--model', 'demo', '--db', db, '-m', text],
            dir,
            env,
          );

        const first = await chat('plan my day');
        expect(first.stderr).not.toMatch(/\n\s+at /);
        expect(first.code).toBe(0);
        expect(first.stdout.trim()).toBe('First answer.');
        expect(first.stderr).toContain('refused the definition toolseam sent for the "task_create" tool');
        expect(first.stderr).toContain(c.said);
        expect(first.stderr).toContain('sent the request once more without it');
        expect(first.stderr).toContain('`toolseam tools --on task_create`');

        const page = await toolseamInProcess(['tools', '--db', db], dir, env);
        expect(page.code).toBe(0);
        expect(page.stdout).toContain('Quarantined (a model provider refused the definition');
        expect(page.stdout).toMatch(/ {2}task_create {2}on \S+ model "demo", since /);
        expect(page.stdout).toContain(`the provider said: `);
        expect(page.stdout).toContain(c.said);
        expect(page.stdout).toContain('lift: toolseam tools --on task_create');
        const json = JSON.parse((await toolseamInProcess(['tools', '--db', db, '--json'], dir, env)).stdout);
        expect(json.quarantined).toMatchObject([{ tool: 'task_create', model: 'demo' }]);

        // not offered on the next turn, so not refused: the turn simply goes without it
        const second = await chat('and tomorrow?');
        expect(second.code).toBe(0);
        expect(second.stdout.trim()).toBe('Second answer.');
        expect(second.stderr).not.toContain('refused');

        const typo = await toolseamInProcess(['tools', '--db', db, '--on', 'task_creat'], dir, env);
        expect(typo.code).toBe(2);
        expect(typo.stderr).toContain(
          'There is no tool named "task_creat", so nothing was switched. Did you mean "task_create"?',
        );
        const lifted = await toolseamInProcess(['tools', '--db', db, '--on', 'task_create'], dir, env);
        expect(lifted.code).toBe(0);
        expect(lifted.stdout).toMatch(/^task_create: offered again on \S+ model "demo" \(it had said: /);
        expect((await toolseamInProcess(['tools', '--db', db], dir, env)).stdout).toContain(
          'No tool is quarantined.',
        );

        // offered again, refused again by this provider, so left out again: still never a lost turn
        const third = await chat('and the day after?');
        expect(third.code).toBe(0);
        expect(third.stdout.trim()).toBe('Third answer.');
        expect(third.stderr).toContain('"task_create"');
      } finally {
        server.proc.kill('SIGTERM');
        await server.done;
      }
    });
  }
});
