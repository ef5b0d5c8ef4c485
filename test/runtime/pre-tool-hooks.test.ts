import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPreToolHooks } from '../../src/runtime/calls/gates/pre-tool-hooks.js';
import { alive } from '../support/process-alive.js';

const call = { tool: 'archive_mail', arguments: { id: 3 }, sessionId: 's1' };

describe('runPreToolHooks: a hook that prints a lot', () => {
  it('keeps only the head of a very long BLOCKED line as the reason', async () => {
    const hook = {
      command: `cat > /dev/null; printf 'BLOCKED: too long '; head -c 3000000 /dev/zero | tr '\\0' x; echo`,
    };
    const reason = (await runPreToolHooks([hook], call)) as string;
    expect(reason.startsWith('too long xxx')).toBe(true);
    expect(reason.length).toBeLessThanOrEqual(2000);
  });

  it('finds the BLOCKED line among many lines of other output, and a last line without a line break', async () => {
    const noisy = { command: `cat > /dev/null; seq 200000; echo 'BLOCKED: found it'; seq 200000` };
    expect(await runPreToolHooks([noisy], call)).toBe('found it');
    const last = { command: `cat > /dev/null; seq 1000; printf 'BLOCKED: at the end'` };
    expect(await runPreToolHooks([last], call)).toBe('at the end');
  });

  it('a hook that prints without end is stopped at its time limit and refuses the call', async () => {
    const endless = { command: 'cat > /dev/null; yes not-a-verdict', timeoutMs: 1000 };
    expect(await runPreToolHooks([endless], call)).toBe('the pre-tool hook did not answer in time');
    const blockedThenEndless = {
      command: 'cat > /dev/null; echo "BLOCKED: said first"; yes',
      timeoutMs: 1000,
    };
    expect(await runPreToolHooks([blockedThenEndless], call)).toBe('said first');
  });
});

describe('runPreToolHooks: a hook ended by a signal', () => {
  it('refuses the call, naming the signal rather than an exit code', async () => {
    const reason = await runPreToolHooks([{ command: 'cat > /dev/null; kill -9 $$' }], call);
    expect(reason).toBe('the pre-tool hook failed to run (ended by the signal SIGKILL)');
  });
});

describe('runPreToolHooks: exit code 2 is a deliberate block', () => {
  it('takes the stderr as the reason, its lines joined', async () => {
    const hook = { command: 'cat > /dev/null; echo "no archiving" >&2; echo "ask the admin" >&2; exit 2' };
    expect(await runPreToolHooks([hook], call)).toBe('no archiving / ask the admin');
  });

  it('keeps the head of a long stderr, where the reason is written', async () => {
    const hook = {
      command: `cat > /dev/null; printf 'the reason ' >&2; head -c 100000 /dev/zero | tr '\\0' x >&2; exit 2`,
    };
    const reason = (await runPreToolHooks([hook], call)) as string;
    expect(reason.startsWith('the reason xxx')).toBe(true);
    expect(reason.length).toBeLessThanOrEqual(2000);
  });

  it('without stderr still blocks, with the same default reason as an empty BLOCKED line', async () => {
    expect(await runPreToolHooks([{ command: 'cat > /dev/null; exit 2' }], call)).toBe('a policy hook');
  });

  it('a BLOCKED line on stdout is the reason even when the hook also exits 2', async () => {
    const hook = { command: 'cat > /dev/null; echo "BLOCKED: said on stdout"; echo other >&2; exit 2' };
    expect(await runPreToolHooks([hook], call)).toBe('said on stdout');
  });

  it('other non-zero exit codes are still failures to run', async () => {
    const hook = { command: 'cat > /dev/null; echo broken >&2; exit 1' };
    expect(await runPreToolHooks([hook], call)).toBe('the pre-tool hook failed to run (exit code 1: broken)');
  });
});

describe('runPreToolHooks: colour and other terminal codes', () => {
  it('reads a coloured BLOCKED line as blocking, its reason without the codes', async () => {
    const red = {
      command: `cat > /dev/null; printf '\\033[1;31mBLOCKED:\\033[0m no \\033[4marchiving\\033[24m today\\033[0m\\n'`,
    };
    expect(await runPreToolHooks([red], call)).toBe('no archiving today');
    const link = {
      command: `cat > /dev/null; printf '\\033]8;;https://x.test\\033\\\\BLOCKED: see the policy\\033]8;;\\007\\r\\n'`,
    };
    expect(await runPreToolHooks([link], call)).toBe('see the policy');
  });

  it('takes the codes out of a reason written on stderr, for exit 2 and for a failure alike', async () => {
    const blocked = { command: `cat > /dev/null; printf '\\033[33mweekend\\033[0m rule\\n' >&2; exit 2` };
    expect(await runPreToolHooks([blocked], call)).toBe('weekend rule');
    const failed = {
      command: `cat > /dev/null; printf '\\033[31mpolicy file missing\\033[0m\\n' >&2; exit 1`,
    };
    expect(await runPreToolHooks([failed], call)).toBe(
      'the pre-tool hook failed to run (exit code 1: policy file missing)',
    );
  });
});

describe('runPreToolHooks: a hook that leaves a process running in the background', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolseam-hook-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** A hook script in its own file that starts `sleep 30` in the background (its pid written down), then `ending`. */
  function leavingHook(ending: string): { command: string; child: () => number } {
    const script = join(dir, 'hook.sh');
    const pidFile = join(dir, 'child.pid');
    writeFileSync(script, `#!/bin/sh\ncat > /dev/null\nsleep 30 &\necho $! > "${pidFile}"\n${ending}\n`, {
      mode: 0o755,
    });
    return { command: script, child: () => Number(readFileSync(pidFile, 'utf8').trim()) };
  }

  it('lets the call through when the hook exits 0, and ends the process it left', async () => {
    const hook = leavingHook('echo "looks fine"\nexit 0');
    expect(await runPreToolHooks([hook], call)).toBeUndefined();
    await expect.poll(() => alive(hook.child()), { timeout: 10_000 }).toBe(false);
  });

  it("blocks with the hook's own words when it exits 2 or prints a BLOCKED line", async () => {
    const exitTwo = leavingHook('echo "not on a Sunday" >&2\nexit 2');
    expect(await runPreToolHooks([exitTwo], call)).toBe('not on a Sunday');
    await expect.poll(() => alive(exitTwo.child()), { timeout: 10_000 }).toBe(false);
    const blocked = leavingHook('echo "BLOCKED: archive is frozen"');
    expect(await runPreToolHooks([blocked], call)).toBe('archive is frozen');
    await expect.poll(() => alive(blocked.child()), { timeout: 10_000 }).toBe(false);
  });

  it('still refuses, as not answering in time, a hook that itself does not exit', async () => {
    const hook = { ...leavingHook('sleep 30'), timeoutMs: 1000 };
    expect(await runPreToolHooks([hook], call)).toBe('the pre-tool hook did not answer in time');
    await expect.poll(() => alive(hook.child()), { timeout: 10_000 }).toBe(false);
  });
});
