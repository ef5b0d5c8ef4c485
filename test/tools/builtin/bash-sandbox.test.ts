import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, makeBench, type Tools, toolsOn } from './builtin-fixture.js';

// Every command here runs in the real sandbox (bubblewrap, as CI installs it); each is one the text checks
// let through, so only the kernel stands between it and what it reaches for.

let bench: Bench;
let tools: Tools;
let home: string;
const realHome = process.env.HOME;

beforeEach(async () => {
  bench = await makeBench();
  // The person's home, with what a home holds: the sandbox must show none of it.
  home = join(bench.dir, 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE-KEY-home-ssh\n');
  writeFileSync(join(home, '.bash_history'), 'export GITHUB_TOKEN=ghp_history_token\n');
  writeFileSync(join(home, 'notes.txt'), 'home-notes-text\n');
  process.env.HOME = home;
  tools = toolsOn(bench);
});
afterEach(async () => {
  process.env.HOME = realHome;
  await bench.cleanup();
});

async function run(command: string, on: Tools = tools) {
  const ctx = on.turn();
  expect(await on.preflight('bash', { command }, ctx), `the text checks pass ${command}`).toBeUndefined();
  return on.invoke('bash', { command }, ctx);
}

function put(rel: string, text: string): void {
  const full = join(bench.ws, rel);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
}

/** Host processes whose command line holds `token` (the sandbox's pids mean nothing out here). */
function hostProcessesWith(token: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (line.includes(token)) found.push(`${pid}: ${line}`);
    } catch {
      // Gone while listed.
    }
  }
  return found;
}

describe('a sandboxed command cannot read what it has no business with', () => {
  it("the workspace's credential files, however it names them", async () => {
    put('.env', 'API_TOKEN=sk-envfile-value\n');
    put('config/.env.production', 'DB_PASSWORD=pw-production-value\n');
    put('certs/server.pem', 'PEM-private-value\n');
    put('certs/server.key', 'KEY-private-value\n');
    put('deploy/service-account-ci.json', '{"private_key": "sa-private-value"}\n');
    put('toolseam.json', '{"model": {"apiKey": "sk-config-value"}}\n');
    put('readme.md', 'plain text\n');
    const result = await run(
      'cat .e?v config/.e*n; cat certs/*; cat deploy/*; cat tool*.json; cat readme.md',
    );
    for (const value of [
      'sk-envfile',
      'pw-production',
      'PEM-private',
      'KEY-private',
      'sa-private',
      'sk-config',
    ]) {
      expect(result.content).not.toContain(value);
    }
    expect(result.content).toContain('plain text');
    expect(result.content).toContain('.env: Permission denied');
    // Nothing was changed by hiding them, and nothing was left behind.
    expect(readFileSync(join(bench.ws, '.env'), 'utf8')).toBe('API_TOKEN=sk-envfile-value\n');
    const written = await run('echo changed > .e?v; echo changed > certs/server.p?m; echo "$?"');
    expect(written.content).toMatch(/Read-only file system|Permission denied/);
    expect(readFileSync(join(bench.ws, 'certs', 'server.pem'), 'utf8')).toBe('PEM-private-value\n');
  });

  it('the system password files, while the world-readable user list stays readable', async () => {
    const shadow = await run('cat /etc/sh*dow; cd /; cat etc/g*shadow; echo end');
    expect(shadow.content).not.toMatch(/^root:/m);
    expect(shadow.content).toContain('Permission denied');
    expect(shadow.content).toContain('end');
    const passwd = await run('cd /; cat etc/passwd');
    expect(passwd.content).toMatch(/^root:x:0:0:/m);
  });

  it('files outside the workspace, read by any program', async () => {
    writeFileSync(join(bench.outside, 'secret.txt'), 'outside-secret-text\n');
    const script = `print('python ran'); print(open('${bench.outside}/secret.txt').read())`;
    const result = await run(`python3 -c "${script}"`);
    expect(result.content).toContain('python ran');
    expect(result.content).toContain('FileNotFoundError');
    expect(result.content).not.toContain('outside-secret-text');
  });

  it("the person's home: the command gets an empty one, and /root shows nothing", async () => {
    const result = await run(
      'echo "home=$HOME"; ls -A ~ | wc -l; cat ~/.ss?/id_ed2* ~/.bash_hist*ry ~/notes.txt; ls -A /root 2>/dev/null | wc -l',
    );
    expect(result.content).toContain(`home=${home}`);
    expect(result.content).not.toMatch(/PRIVATE-KEY|ghp_history|home-notes/);
    expect(result.content.split('\n').filter((line) => line === '0')).toHaveLength(2);
  });

  it('a link in the workspace to a place outside it', async () => {
    writeFileSync(join(bench.outside, 'secret.txt'), 'outside-secret-text\n');
    const result = await run(
      `ln -s ${bench.outside}/secret.txt out; ln -s /etc/sh?dow pw; cat out pw; echo end`,
    );
    expect(result.content).not.toContain('outside-secret-text');
    expect(result.content).not.toMatch(/^root:/m);
    expect(result.content).toContain('end');
  });
});

describe('a sandboxed command changes only the workspace and a private /tmp', () => {
  it('cannot write outside the workspace; /tmp and the home are its own and gone after', async () => {
    const result = await run(
      `echo x > ${bench.outside}/w.txt; echo x > /usr/w.txt; echo x > /w.txt; ` +
        `echo kept > /tmp/toolseam-sandbox-probe.txt; echo kept > ~/w.txt; echo x > ws-file.txt; ls /tmp`,
    );
    expect(existsSync(join(bench.outside, 'w.txt'))).toBe(false);
    expect(existsSync('/usr/w.txt')).toBe(false);
    expect(existsSync('/w.txt')).toBe(false);
    expect(existsSync('/tmp/toolseam-sandbox-probe.txt')).toBe(false);
    expect(existsSync(join(home, 'w.txt'))).toBe(false);
    expect(readFileSync(join(bench.ws, 'ws-file.txt'), 'utf8')).toBe('x\n');
    expect(result.content).toMatch(/Read-only file system|No such file or directory/);
    expect(result.content).toContain('toolseam-sandbox-probe.txt');
    const next = await run('ls /tmp/toolseam-sandbox-probe.txt ~/w.txt 2>&1 | grep -c "No such file"');
    expect(next.content).toBe('2');
  });

  it("cannot make or change toolseam's config for the next session", async () => {
    const made = await run(
      `t=toolseam; printf '{"workspace": ["/"]}' > $t.json; mkdir -p sub; printf '{}' > sub/$t.json`,
    );
    expect(existsSync(join(bench.ws, 'toolseam.json'))).toBe(false);
    expect(existsSync(join(bench.ws, 'sub', 'toolseam.json'))).toBe(false);
    expect(made.isError).toBe(true);
    expect(made.content).toContain(
      `[the command made ${join(bench.ws, 'sub', 'toolseam.json')}, ${join(bench.ws, 'toolseam.json')}; removed`,
    );
    put('toolseam.json', '{"workspace": ["."]}\n');
    const changed = await run(
      `t=toolseam; printf '{"workspace": ["/"]}' > $t.json; mv $t.json other.json; rm -f $t.json; ls`,
    );
    expect(readFileSync(join(bench.ws, 'toolseam.json'), 'utf8')).toBe('{"workspace": ["."]}\n');
    expect(changed.content).toMatch(/Read-only file system|Permission denied/);
    expect(changed.content).toMatch(/busy/i);
  });

  it('keeps a subagent leaf to the folders it may change, as the file tools do', async () => {
    mkdirSync(join(bench.ws, 'out', 'keep'), { recursive: true });
    const ctx = tools.turn({ writable: ['out'], offLimits: ['out/keep'] });
    const command = 'echo a > out/a.txt; echo b > b.txt; echo c > out/keep/c.txt; echo end';
    const result = await tools.invoke('bash', { command }, ctx);
    expect(readFileSync(join(bench.ws, 'out', 'a.txt'), 'utf8')).toBe('a\n');
    expect(existsSync(join(bench.ws, 'b.txt'))).toBe(false);
    expect(existsSync(join(bench.ws, 'out', 'keep', 'c.txt'))).toBe(false);
    expect(result.content).toContain('b.txt: Read-only file system');
  });

  it("leaves installed packages alone: a package's test key is no secret, and npm ci removes them", async () => {
    put('node_modules/tls-lib/test/server.key', 'public test key\n');
    put('.env', 'A=1\n');
    const result = await run('cat node_modules/tls-lib/test/server.k?y; rm -rf node_modules && echo removed');
    expect(result.content).toBe('public test key\nremoved');
    expect(existsSync(join(bench.ws, 'node_modules'))).toBe(false);
  });

  it('leaves no trace of the places it hid', async () => {
    put('.env', 'A=1\n');
    put('keys/deploy.key', 'k\n');
    await run('true');
    const entries = readdirSync(bench.ws, { recursive: true }).map(String).sort();
    expect(entries).toEqual(['.env', 'keys', 'keys/deploy.key']);
  });
});

describe('nothing a sandboxed command starts outlives it', () => {
  it('ends what it left behind, even in a session of its own, and says so', async () => {
    const result = await run(
      'setsid sleep 31.417 & (setsid nohup sleep 31.418 > /dev/null 2>&1 &); echo started',
    );
    expect(result.content).toMatch(/^started\n\[.*background.*\]$/);
    expect(result.data).toMatchObject({ exitCode: 0, backgroundEnded: true });
    expect(hostProcessesWith('sleep 31.41')).toEqual([]);
    // A command that replaces its shell, or sets its own exit trap, is told nothing; what it left ends all the same.
    for (const command of [
      'setsid sleep 31.419 & exec true',
      "trap 'echo bye' EXIT; setsid sleep 31.419 &",
    ]) {
      await run(command);
      expect(hostProcessesWith('sleep 31.419'), command).toEqual([]);
    }
  });

  it('runs the command as bash -c does, with nothing of the sandbox showing in its shell', async () => {
    const result = await run('echo "$0 [$BASH_ENV] $#"; bash -c \'echo "[$BASH_ENV]"\'; echo "line $LINENO"');
    expect(result.content).toBe('bash [] 0\n[]\nline 1');
  });

  it('says nothing when what it started had ended', async () => {
    const result = await run('sleep 0.1 & wait; exit 0 & echo done');
    expect(result).toMatchObject({ content: 'done', data: { backgroundEnded: false } });
  });
});

describe('a sandboxed command reaches the network only when the config allows it', () => {
  let server: Server;
  let port: number;
  beforeEach(async () => {
    server = createServer((_req, res) => res.end('host-loopback-answer'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(() => new Promise<void>((done) => server.close(() => done())));

  const fetch = () =>
    `python3 -c "import urllib.request as u; print(u.urlopen('http://127.0.0.1:${port}/', timeout=5).read().decode())" 2>&1 | tail -1`;

  it('off by default: a loopback server on the host cannot be reached', async () => {
    const result = await run(fetch());
    expect(result.content).not.toContain('host-loopback-answer');
    expect(result.content).toMatch(/Connection refused|URLError/);
  });

  it('on when the config says so', async () => {
    const open = toolsOn(bench, { shell: { network: true } });
    const result = await run(fetch(), open);
    expect(result.content).toBe('host-loopback-answer');
  });
});

describe("a command's environment holds no credential", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'MY_SETTING', 'MIRRORED_SETTING', 'DB_PASSWORD']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('whatever way a command would print it', async () => {
    process.env.OPENAI_API_KEY = 'sk-proj-a1b2c3d4e5f6g7h8';
    process.env.GITHUB_TOKEN = 'ghp_z9y8x7w6v5u4t3s2';
    process.env.DB_PASSWORD = 'hunter2-password-value';
    process.env.MY_SETTING = 'plain-setting';
    process.env.MIRRORED_SETTING = 'sk-proj-a1b2c3d4e5f6g7h8';
    const configured = toolsOn(bench, { shell: { env: ['MY_SETTING', 'MIRRORED_SETTING'] } });
    const result = await run(
      'env | grep -i tok | fold -w 9; echo $OPENAI_API_KEY | rev; env | grep -ci -e key -e password; ' +
        "cat /proc/[0-9]*/environ | tr '\\0' '\\n' | grep -ci -e ghp_ -e sk-proj; echo \"setting=$MY_SETTING mirrored=$MIRRORED_SETTING\"",
      configured,
    );
    for (const part of ['sk-proj', 'a1b2c3', '8h7g6f', 'ghp_', 'z9y8x7', 'hunter2']) {
      expect(result.content).not.toContain(part);
    }
    expect(result.content).toContain('setting=plain-setting mirrored=');
    expect(result.content).not.toContain('[secret:');
  });

  it('unconfined too', async () => {
    process.env.GITHUB_TOKEN = 'ghp_z9y8x7w6v5u4t3s2';
    const open = toolsOn(bench, { shell: { sandbox: 'off' } });
    const result = await run('env | grep -ci tok; echo "$GITHUB_TOKEN" | rev', open);
    expect(result.content).not.toContain('2s3t4u5v6w7x8y9z');
    expect(result.content.split('\n')[0]).toBe('0');
  });
});

describe("toolseam's own files in the workspace", () => {
  it('are hidden from a command: the config file it was started with and the session database', async () => {
    put('agent.json', '{"model": {"apiKey": "sk-agent-value"}}\n');
    put('state.db', 'SQLite format 3 grants-value');
    put('state.db-wal', 'wal-value');
    const own = toolsOn(bench, {
      configPaths: [join(bench.ws, 'agent.json')],
      ownFiles: [join(bench.ws, 'state.db')],
    });
    const result = await run('cat agent.js?n state.d? state.db-w?l; echo x >> state.d?', own);
    expect(result.content).not.toMatch(/sk-agent|grants-value|wal-value/);
    expect(readFileSync(join(bench.ws, 'state.db'), 'utf8')).toBe('SQLite format 3 grants-value');
  });
});
