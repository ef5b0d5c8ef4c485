import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools, toolsOn } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

function put(rel: string, text: string): void {
  const full = join(bench.ws, rel);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
}

describe('every file tool applies one credential rule to a folder where credentials are kept', () => {
  beforeEach(() => {
    put('.env/production', 'API_TOKEN=sk-folder-secret\n');
    put('.ssh/config', 'Host TOKEN-box\n');
    put('notes.txt', 'TOKEN is a word here\n');
  });

  it('refuses to list it, read what is in it, or search it by name', async () => {
    const ctx = tools.turn();
    const calls: Array<[string, Record<string, unknown>]> = [
      ['list_dir', { path: '.env' }],
      ['read_file', { path: '.env/production' }],
      ['grep', { pattern: 'TOKEN', path: '.env' }],
      ['grep', { pattern: 'TOKEN', path: '.env/production' }],
      ['glob', { pattern: '.env/*' }],
      ['glob', { pattern: '.env/production' }],
      ['write_file', { path: '.env/staging', content: 'X=1' }],
      ['list_dir', { path: '.ssh' }],
      ['read_file', { path: '.ssh/config' }],
    ];
    for (const [tool, args] of calls) {
      const result = await tools.invoke(tool, args, ctx);
      expect(result.data, `${tool} ${JSON.stringify(args)}`).toMatchObject({ code: 'credential_path' });
      expect(result.content).not.toContain('sk-folder-secret');
    }
    const inside = await tools.invoke('read_file', { path: '.env/production' }, ctx);
    expect(inside.content).toBe(
      '.env/production is inside .env (a .env file), where credentials are kept; the file tools never read or change what is there.',
    );
  });

  it('leaves it out of a search or a listing of the folders around it, but still shows its name', async () => {
    const ctx = tools.turn();
    const found = await tools.invoke('grep', { pattern: 'TOKEN' }, ctx);
    expect(found.content).toBe('notes.txt:1: TOKEN is a word here');
    const globbed = await tools.invoke('glob', { pattern: '**/*' }, ctx);
    expect(globbed.content).toBe('notes.txt');
    const dotted = await tools.invoke('glob', { pattern: '**/.*' }, ctx);
    expect(dotted.content).toBe('No file matches **/.*.');
    const listed = await tools.invoke('list_dir', {}, ctx);
    expect(listed.content).toBe('.env/\n.ssh/\nnotes.txt');
  });
});

describe('a workspace that itself lies in a folder named like a credential place', () => {
  it('works as any workspace: the folders above it do not count, the places inside it still do', async () => {
    const ws = join(bench.dir, '.ssh', 'notes');
    mkdirSync(join(ws, 'docs'), { recursive: true });
    writeFileSync(join(ws, 'docs', 'plan.md'), 'the plan\n');
    writeFileSync(join(ws, '.env'), 'API_TOKEN=sk-inner-secret\n');
    writeFileSync(join(ws, 'id_ed25519'), 'KEY private\n');
    const nested = toolsOn(bench, { workspace: [ws] });
    const ctx = nested.turn();
    expect((await nested.invoke('read_file', { path: 'docs/plan.md' }, ctx)).content).toBe(
      '     1\tthe plan',
    );
    expect((await nested.invoke('list_dir', {}, ctx)).content).toBe('.env\ndocs/\nid_ed25519');
    expect((await nested.invoke('glob', { pattern: '**/*.md' }, ctx)).content).toBe('docs/plan.md');
    expect((await nested.invoke('glob', { pattern: 'docs/plan.md' }, ctx)).content).toBe('docs/plan.md');
    expect((await nested.invoke('grep', { pattern: 'plan|TOKEN|KEY', regex: true }, ctx)).content).toBe(
      'docs/plan.md:1: the plan',
    );
    const written = await nested.invoke('write_file', { path: 'docs/next.md', content: 'next\n' }, ctx);
    expect(written.isError).toBe(false);
    for (const path of ['.env', 'id_ed25519']) {
      const result = await nested.invoke('read_file', { path }, ctx);
      expect(result.data, path).toMatchObject({ code: 'credential_path' });
    }
  });

  it('still refuses a credential file that the workspace folder and the path only name together', async () => {
    const aws = join(bench.dir, '.aws');
    mkdirSync(aws);
    writeFileSync(join(aws, 'credentials'), 'aws_secret_access_key = abc\n');
    writeFileSync(join(aws, 'notes.txt'), 'profiles\n');
    const home = toolsOn(bench, { workspace: [aws] });
    const ctx = home.turn();
    const result = await home.invoke('read_file', { path: 'credentials' }, ctx);
    expect(result.data).toMatchObject({ code: 'credential_path', what: 'AWS credentials' });
    expect((await home.invoke('grep', { pattern: 'profiles|secret', regex: true }, ctx)).content).toBe(
      'notes.txt:1: profiles',
    );
  });
});

describe('key and certificate files, service account keys and shell histories', () => {
  it('are credentials to every file tool and to the shell, while names that only resemble them are not', async () => {
    put('certs/server.pem', 'PEM-value\n');
    put('certs/tls.key', 'KEY-value\n');
    put('certs/bundle.p12', 'P12-value\n');
    put('deploy/service-account-prod.json', '{"private_key": "SA-value"}\n');
    put('.bash_history', 'export TOKEN=HIST-value\n');
    put('src/service-accounts.ts', 'export const accounts = "value-code";\n');
    put('docs/keychain.json', '"value-doc"\n');
    const ctx = tools.turn();
    const cases: Array<[string, string]> = [
      ['certs/server.pem', 'a private key or certificate file'],
      ['certs/tls.key', 'a private key or certificate file'],
      ['certs/bundle.p12', 'a private key or certificate file'],
      ['deploy/service-account-prod.json', 'a cloud service account key'],
      ['.bash_history', 'a shell history'],
    ];
    for (const [path, what] of cases) {
      const read = await tools.invoke('read_file', { path }, ctx);
      expect(read.data, path).toMatchObject({ code: 'credential_path', what });
      const shell = await tools.preflight('bash', { command: `cat ${path}` }, ctx);
      expect(shell?.data, path).toMatchObject({ code: 'credential_path', what });
    }
    const found = await tools.invoke('grep', { pattern: 'value' }, ctx);
    expect(found.content).toBe(
      'docs/keychain.json:1: "value-doc"\nsrc/service-accounts.ts:1: export const accounts = "value-code";',
    );
    for (const path of ['src/service-accounts.ts', 'docs/keychain.json']) {
      expect((await tools.invoke('read_file', { path }, ctx)).isError, path).toBe(false);
    }
  });
});
