import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { TSX_LOADER } from '../support/tsx-loader.js';

const bin = join(import.meta.dirname, '..', '..', 'src', 'cli', 'bin.ts');

/** True when this machine lets a test mount a small tmpfs of its own (in a user and mount namespace). */
const canMount =
  spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', 'mount -t tmpfs tmpfs /mnt'], {
    encoding: 'utf8',
  }).status === 0;

let dir: string;
let standIn: StandIn | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-full-'));
});
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/**
 * An app whose tool fills the disk the database is on, answers, and frees the space two seconds later:
 * the store refuses the tool's result (SQLITE_FULL) until then.
 */
function writeFillingApp(): void {
  const app = join(dir, 'apps', 'filler');
  mkdirSync(app, { recursive: true });
  writeFileSync(
    join(app, 'toolseam-app.json'),
    JSON.stringify({ name: 'filler', description: 'Fills the disk.', entry: 'index.js' }),
  );
  writeFileSync(
    join(app, 'index.js'),
    [
      "import { rmSync, statfsSync, writeFileSync } from 'node:fs';",
      "import { join } from 'node:path';",
      "export const tools = [{ name: 'export_data', description: 'Exports the data.', risk: 'safe', parameters: { type: 'object', properties: {} } }];",
      'export async function invoke() {',
      "  const filler = join(process.env.FILL_DIR, 'filler.bin');",
      '  const free = statfsSync(process.env.FILL_DIR);',
      '  try { writeFileSync(filler, Buffer.alloc(Number(free.bavail * free.bsize))); } catch {}',
      '  setTimeout(() => rmSync(filler, { force: true }), 2000);',
      "  return { content: 'exported 1,204 rows to data.csv' };",
      '}',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'toolseam.json'), JSON.stringify({ apps: ['./apps/filler'] }));
}

describe('a full disk under the session store', () => {
  it.skipIf(!canMount)(
    "keeps the tool's output, says so in one line, and writes it once space is freed (chat -m)",
    async () => {
      writeFillingApp();
      standIn = await startStandIn({
        family: 'openai',
        script: [{ toolCalls: [{ name: 'export_data', arguments: {} }] }, { echo: 'lastToolResult' }],
      });
      const disk = join(dir, 'disk');
      mkdirSync(disk);
      const db = join(disk, 't.db');
      const chat = [
        bin,
        'chat',
        '-m',
        'export',
        '--base-url',
        standIn.baseURL,
        '--model',
        'demo',
        '--db',
        db,
      ];
      const command = `mount -t tmpfs -o size=2m tmpfs "$FILL_DIR" && exec "$0" "$@"`;
      const child = spawn(
        'unshare',
        [
          '--user',
          '--map-root-user',
          '--mount',
          'sh',
          '-c',
          command,
          process.execPath,
          '--import',
          TSX_LOADER,
          ...chat,
        ],
        {
          cwd: dir,
          env: { ...process.env, OPENAI_API_KEY: '', FILL_DIR: disk },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(stderr).toContain(
        '(the session store cannot take the result of export_data yet (the disk is full); it is kept and written as soon as the store answers)',
      );
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(stdout.trim()).toBe('exported 1,204 rows to data.csv');
      expect(code).toBe(0);
    },
    60_000,
  );
});
