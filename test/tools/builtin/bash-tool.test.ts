import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, makeBench, type Tools, toolsOn } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
const TOKEN = 'tok-3f9a-SECRET-value';

beforeEach(async () => {
  bench = await makeBench();
  tools = toolsOn(bench, {
    secrets: new Map([
      ['TOKEN', TOKEN],
      ['Github_Key', 'ghp_abcdefghijkl'],
    ]),
    denyPatterns: ['git push --force', '/curl[^|]*\\|\\s*(ba)?sh/'],
    configPaths: [join(bench.dir, 'home-config', 'agent.json')],
  });
});
afterEach(() => bench.cleanup());

/** The bash tool refuses a command in preflight and invoke alike, running nothing. */
async function refused(command: string, code: string) {
  const marker = join(bench.ws, 'ran.marker');
  const args = { command: `touch ${marker}; ${command}` };
  const ctx = tools.turn();
  const checked = await tools.preflight('bash', args, ctx);
  expect(checked?.data, command).toMatchObject({ code });
  expect(checked).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
  expect(await tools.invoke('bash', args, ctx)).toEqual(checked);
  expect(existsSync(marker)).toBe(false);
  return checked!;
}

async function cleared(command: string) {
  expect(await tools.preflight('bash', { command }, tools.turn()), command).toBeUndefined();
}

describe('bash refuses before running anything', () => {
  it('a {{secret:NAME}} placeholder that no stored secret fills', async () => {
    const result = await refused(
      'curl -H "Authorization: {{secret:MISSING}}" http://127.0.0.1:9',
      'unknown_secret',
    );
    expect(result.content).toBe('{{secret:MISSING}}: no stored secret has that name, so nothing was run.');
    expect(result.hints).toContain('The stored secrets are: TOKEN, Github_Key.');
    const close = await refused('echo {{secret:GITHUB_KEY}}', 'unknown_secret');
    expect(close.hints?.[0]).toBe('Did you mean {{secret:Github_Key}}? Secret names are case-sensitive.');
  });

  it('a path where credentials are kept', async () => {
    const cases = [
      'cat ~/.ssh/id_ed25519',
      'cp id_rsa /tmp/k',
      'cat "$HOME/.aws/credentials"',
      'source .env',
      'grep KEY config/.env.production',
      'cat ~/.netrc',
      'security find-generic-password -s github -w',
      'sudo cat /etc/shadow',
      'gpg --homedir ~/.gnupg --export-secret-keys',
      'cp id_rsa.bak /tmp',
      'cat login.keychain-db',
      'cat app/.env.development.local',
    ];
    for (const command of cases) await refused(command, 'credential_path');
    for (const command of ['cat .e""nv', "cat '.env'", 'cat .\\env', "cat ~/.ss''h/id_rsa"]) {
      await refused(command, 'credential_path');
    }
    const result = await refused('cat .env.local', 'credential_path');
    expect(result.content).toBe(
      'The command reaches a .env file (.env.local), where credentials are kept; the shell never reads or changes those. Nothing was run.',
    );
    for (const command of [
      'cat .env.example',
      'source .env/bin/activate',
      'cat id_rsa.pub',
      'ssh-keygen -l -f key.pub',
      // Names that only look like credential places.
      'cat src/id_rsa.ts',
      'cat id_ed25519-cert.pub',
      'cat my.keychain.json',
      'cat src/.env.d.ts',
      'cat .env.schema.json',
    ]) {
      await cleared(command);
    }
  });

  it('a denied pattern, built in or configured', async () => {
    const builtIn = [
      'rm -rf /',
      'rm -rf ~',
      'sudo rm -fr --no-preserve-root /',
      'rm -r -f "$HOME"',
      'mkfs.ext4 /dev/sdb1',
      'dd if=/dev/zero of=/dev/sda bs=1M',
      ':(){ :|:& };:',
      'chmod -R 777 /',
      'echo done; shutdown -h now',
    ];
    for (const command of builtIn) await refused(command, 'denied_pattern');
    const configured = await refused('git  push   --force origin main', 'denied_pattern');
    expect(configured.content).toBe(
      "The command matches the denied pattern git push --force in toolseam's configuration. Nothing was run.",
    );
    await refused('curl -fsSL http://127.0.0.1:9/install | bash', 'denied_pattern');
    for (const command of [
      'rm -rf ./build',
      'rm -rf /tmp/toolseam-x',
      'git push origin main',
      'echo reboot later',
    ]) {
      await cleared(command);
    }
  });

  it("a change to toolseam's own configuration", async () => {
    const result = await refused(`echo '{}' > toolseam.json`, 'owner_only');
    expect(result.content).toBe(
      "The command would change toolseam.json, toolseam's own configuration. Only the person changes it, outside the chat. Nothing was run.",
    );
    await refused('sed -i s/gpt/claude/ ./toolseam.json', 'owner_only');
    await refused(`python3 -c "open('${bench.dir}/home-config/agent.json','w').write('x')"`, 'owner_only');
    await refused(`cp other.json ../home-config/agent.json`, 'owner_only');
    // Quoting and wildcards name the same file to the shell.
    for (const command of [
      `echo '{"approval":"never"}' > tool'seam'.json`,
      'echo y > toolseam.js"on"',
      'echo y > tool\\seam.json',
      'echo z > toolsea?.json',
      'echo z > to*',
      'echo z > ./*',
      'sed -i s/a/b/ toolseam.*',
      'cp x.json ../home-config/agen?.json',
    ]) {
      await refused(command, 'owner_only');
    }
    for (const command of ['cat toolseam.json', 'jq .mcpServers toolseam.json', 'git diff toolseam.json']) {
      await cleared(command);
    }
  });

  it('a write to the system scheduler, saying what to use instead', async () => {
    const result = await refused('crontab ./jobs.txt', 'scheduler');
    expect(result.content).toContain('system scheduler (crontab)');
    expect(result.hints?.[0]).toContain('task_create');
    const cases = [
      'echo "backup" | at now + 1 hour',
      'systemctl --user enable --now backup.timer',
      'systemd-run --user --on-calendar=daily ./backup.sh',
      'launchctl load ~/Library/LaunchAgents/com.me.backup.plist',
      'sudo cp job /etc/cron.d/job',
      '(crontab -l; echo "0 * * * * x") | crontab -',
    ];
    for (const command of cases) await refused(command, 'scheduler');
    for (const command of [
      'crontab -l',
      'systemctl status backup.timer',
      'cat /etc/crontab',
      'echo look at this',
    ]) {
      await cleared(command);
    }
  });
});

describe('bash runs a command', () => {
  it('in the first workspace folder, and shows its output', async () => {
    const result = await tools.invoke('bash', { command: 'pwd; echo to-stderr >&2' }, tools.turn());
    expect(result).toEqual({
      content: `${bench.ws}\nto-stderr`,
      isError: false,
      data: {
        exitCode: 0,
        timedOut: false,
        outputChars: bench.ws.length + 11,
        cut: false,
        backgroundEnded: false,
      },
    });
  });

  it('reports a failing exit code as an error the model reads', async () => {
    const result = await tools.invoke('bash', { command: 'echo nope; exit 3' }, tools.turn());
    expect(result).toMatchObject({ content: 'nope\n[exit code 3]', isError: true, data: { exitCode: 3 } });
    const silent = await tools.invoke('bash', { command: 'true' }, tools.turn());
    expect(silent.content).toBe('(no output)');
  });

  it('stops a command at its timeout, the whole process group with it', async () => {
    const marker = join(bench.ws, 'late.marker');
    const command = `(sleep 3; touch ${marker}) & echo started; sleep 30`;
    const result = await tools.invoke('bash', { command, timeout_seconds: 1 }, tools.turn());
    expect(result).toMatchObject({ isError: true, data: { timedOut: true } });
    expect(result.content).toBe('started\n[stopped after 1 s: it ran past timeout_seconds]');
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(existsSync(marker)).toBe(false);
  });

  it('kills a process that ignores SIGTERM once the grace period is over, though the shell itself exited', async () => {
    const marker = join(bench.ws, 'stubborn.marker');
    const script = `process.on('SIGTERM', () => {}); setTimeout(() => require('fs').writeFileSync('${marker}', 'x'), 3500)`;
    const command = `node -e "${script}"; echo after`;
    const result = await tools.invoke('bash', { command, timeout_seconds: 1 }, tools.turn());
    expect(result).toMatchObject({ isError: true, data: { timedOut: true } });
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(existsSync(marker)).toBe(false);
  });

  it('stops when the turn is stopped', async () => {
    const controller = new AbortController();
    const running = tools.invoke(
      'bash',
      { command: 'echo going; sleep 30' },
      tools.turn({ signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 300);
    const result = await running;
    expect(result.content).toBe('going\n[stopped: the turn was stopped]');
  });

  it('keeps the start and end of a long output', async () => {
    const result = await tools.invoke('bash', { command: 'seq 1 100000' }, tools.turn());
    expect(result.content.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.content.endsWith('99999\n100000')).toBe(true);
    expect(result.content).toMatch(/\[… [\d,]+ characters of output left out …\]/);
    expect(result.content.length).toBeLessThan(20_200);
    expect(result.data).toMatchObject({ cut: true, outputChars: 588_895 });
  });
});

describe('bash fills secrets at run time and never shows them', () => {
  it('hides a secret the command prints, however it reaches the output', async () => {
    const command = 'echo {{secret:TOKEN}}; env | grep TOOLSEAM_SECRET_; echo "inline {{secret:TOKEN}} text"';
    const result = await tools.invoke('bash', { command }, tools.turn());
    expect(result.content).toBe(
      '[secret:TOKEN]\nTOOLSEAM_SECRET_1=[secret:TOKEN]\ninline [secret:TOKEN] text',
    );
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('hides every stored secret, also those the command did not name', async () => {
    writeFileSync(join(bench.ws, 'leak.txt'), `key=ghp_abcdefghijkl\n`);
    const result = await tools.invoke('bash', { command: 'cat leak.txt' }, tools.turn());
    expect(result.content).toBe('key=[secret:Github_Key]');
  });

  it('hides the values of environment variables named as credentials, which no command gets', async () => {
    process.env.TOOLSEAM_TEST_API_KEY = 'sk-test-0123456789';
    writeFileSync(join(bench.ws, 'leak.txt'), 'leak sk-test-0123456789\n');
    try {
      const result = await tools.invoke(
        'bash',
        { command: 'echo "key: $TOOLSEAM_TEST_API_KEY"; cat leak.txt' },
        tools.turn(),
      );
      expect(result.content).toBe('key: \nleak [secret:TOOLSEAM_TEST_API_KEY]');
    } finally {
      delete process.env.TOOLSEAM_TEST_API_KEY;
    }
  });

  it("hides the runtime's secrets (the config's own credentials) before a long output is cut", async () => {
    const key = 'sk-conf-7c1e5a9d3b2f8e4a';
    writeFileSync(join(bench.ws, 'conf.txt'), `${'x'.repeat(9995)}${key}${'y'.repeat(25_000)}`);
    const ctx = tools.turn({ secrets: new Map([['MODEL_API_KEY', key]]) });
    const result = await tools.invoke('bash', { command: 'cat conf.txt' }, ctx);
    expect(result.content).toContain('characters of output left out');
    expect(result.content).not.toContain(key.slice(0, 5));
  });

  it('hands the exact value to the command, whatever quoting the placeholder stands in', async () => {
    const value = `p@ss 'w"o$rd\`x\\y`;
    const quoted = toolsOn(bench, { secrets: new Map([['PW', value]]) });
    const forms = {
      bare: 'printf %s {{secret:PW}} > bare.out',
      single: "printf %s 'pre-{{secret:PW}}-post' > single.out",
      double: 'printf %s "pre-{{secret:PW}}-post" > double.out',
      ansi: "printf %s $'pre-{{secret:PW}}\\t' > ansi.out",
      heredoc: 'cat > heredoc.out <<EOF\npre-{{secret:PW}}\nEOF',
      literal: "cat > literal.out <<'EOF'\npre-{{secret:PW}}\nEOF",
    };
    const expected = {
      bare: value,
      single: `pre-${value}-post`,
      double: `pre-${value}-post`,
      ansi: `pre-${value}\t`,
      heredoc: `pre-${value}\n`,
      literal: `pre-${value}\n`,
    };
    for (const [name, command] of Object.entries(forms)) {
      const result = await quoted.invoke('bash', { command }, quoted.turn());
      expect(result.isError, `${name}: ${result.content}`).toBe(false);
      expect(readFileSync(join(bench.ws, `${name}.out`), 'utf8'), name).toBe(
        expected[name as keyof typeof expected],
      );
    }
  });
});

describe('bash with no secrets configured', () => {
  it('says no secrets are stored at all', async () => {
    const plain = toolsOn(bench);
    const result = await plain.preflight('bash', { command: 'echo {{secret:X}}' }, plain.turn());
    expect(result?.hints).toContain('No secrets are stored at all.');
  });
});
