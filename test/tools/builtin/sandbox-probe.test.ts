import { describe, expect, it } from 'vitest';
import { shellSandbox, shellSandboxSoon } from '../../../src/tools/builtin/sandbox-probe.js';
import { systemFilesListed } from '../../../src/tools/builtin/system-masks.js';

describe('the sandbox probe, waited for or awaited', () => {
  it('finds the same state either way, and keeps it', async () => {
    const soon = shellSandboxSoon();
    expect(shellSandboxSoon()).toBe(soon);
    const state = await soon;
    expect(shellSandbox()).toEqual(state);
    expect(await shellSandboxSoon()).toBe(shellSandbox());
    // This file's processes run no command: the probe started bubblewrap without walking /etc for the
    // private files a command's sandbox hides (its first command lists them).
    expect(systemFilesListed()).toBe(false);
  });

  it('says the same of a bubblewrap program that cannot run', async () => {
    const missing = '/no/such/folder/bwrap';
    const soon = await shellSandboxSoon(missing);
    expect(soon).toEqual({
      ready: false,
      reason: `the bubblewrap program ${missing} does not exist or cannot be run`,
    });
    expect(shellSandbox(missing)).toBe(soon);
  });

  it('says the same of a program that starts but is no bubblewrap', async () => {
    // `false` exits with 1 and says nothing, as a bubblewrap that cannot make namespaces would.
    const notBwrap = '/bin/false';
    const state = await shellSandboxSoon(notBwrap);
    expect(state.ready).toBe(false);
    expect(state).toEqual({
      ready: false,
      reason: `${notBwrap} could not start a sandbox (it exited with 1); the kernel or the container may not allow user namespaces`,
    });
  });
});
