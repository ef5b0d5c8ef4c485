import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { boundResult } from '../../src/runtime/calls/bound-result.js';
import { callDigest, canonicalJson } from '../../src/runtime/calls/call-digest.js';
import { runPreToolHooks } from '../../src/runtime/calls/gates/pre-tool-hooks.js';
import { refusalResult } from '../../src/runtime/calls/refusals.js';
import { globMatch } from '../../src/runtime/glob-match.js';
import { redactSecrets } from '../../src/tools/redact-secrets.js';

describe('globMatch', () => {
  it('matches whole names with *, ? and classes, case-sensitively', () => {
    expect(globMatch('mcp/github/*', 'mcp/github/create_issue')).toBe(true);
    expect(globMatch('mcp/github/*', 'mcp/gitlab/create_issue')).toBe(false);
    expect(globMatch('read_?ile', 'read_file')).toBe(true);
    expect(globMatch('[rw]*_file', 'write_file')).toBe(true);
    expect(globMatch('[!rw]*_file', 'write_file')).toBe(false);
    expect(globMatch('Read_file', 'read_file')).toBe(false);
    expect(globMatch('a.b', 'axb')).toBe(false);
    // A `]` outside a class, and a `[` that opens none, are plain characters.
    expect(globMatch('a]', 'a]')).toBe(true);
    expect(globMatch('x[y', 'x[y')).toBe(true);
  });

  it('lets * and ? stand for any character, line breaks and separators included', () => {
    expect(globMatch('mcp/srv/*', 'mcp/srv/wipe\nall')).toBe(true);
    expect(globMatch('mcp/srv/*', 'mcp/srv/wipe\r\u2028\u2029all')).toBe(true);
    expect(globMatch('wipe?all', 'wipe\nall')).toBe(true);
  });
});

describe('call digest', () => {
  it('is the same for equal arguments whatever the key order, and differs otherwise', () => {
    expect(canonicalJson({ b: 1, a: [true, { d: null, c: 'x' }] })).toBe(
      '{"a":[true,{"c":"x","d":null}],"b":1}',
    );
    expect(callDigest('t', { a: 1, b: 2 })).toBe(callDigest('t', { b: 2, a: 1 }));
    expect(callDigest('t', { a: 1 })).not.toBe(callDigest('t', { a: 2 }));
    expect(callDigest('t', { a: 1 })).not.toBe(callDigest('u', { a: 1 }));
  });
});

describe('results', () => {
  it('redacts known secrets by name', () => {
    const secrets = new Map([['GITHUB_TOKEN', 'ghp_abcdef123456']]);
    expect(redactSecrets('token=ghp_abcdef123456; again ghp_abcdef123456', secrets)).toBe(
      'token=[secret:GITHUB_TOKEN]; again [secret:GITHUB_TOKEN]',
    );
  });

  it('hides two secrets that run into each other together, leaving no part of either', () => {
    const secrets = new Map([
      ['A', 'abcd1234'],
      ['B', '1234wxyz'],
    ]);
    expect(redactSecrets('key abcd1234wxyz end', secrets)).toBe('key [secret:A,B] end');
  });

  it('cuts a long result to its start and end within the limit, and says how much is left out', () => {
    const out = boundResult(`${'x'.repeat(2500)}${'y'.repeat(2500)}`, 1000);
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out.startsWith('x'.repeat(500))).toBe(true);
    expect(out.endsWith('y'.repeat(200))).toBe(true);
    const left = Number(/\[… ([\d,]+) characters left out here/.exec(out)?.[1]?.replace(/,/g, ''));
    expect(out.replace(/\n\[…[^\]]*\]\n/, '').length + left).toBe(5000);
    expect(out).not.toContain('offset');
    expect(boundResult('x'.repeat(5000), 1000, { tool: 'read_file', pagesBy: 'offset' })).toContain(
      'call read_file again with offset',
    );
    expect(boundResult('short', 1000)).toBe('short');
  });
});

describe('refusalResult', () => {
  it('tells a hook refusal as a hook refusal, with its reason, never as a decline', () => {
    const r = refusalResult('archive_mail', { by: 'hook', reason: 'archiving is off on weekends' });
    expect(r.content).toContain('policy hook (archiving is off on weekends)');
    expect(r.content).not.toContain('declined');
    expect(r).toMatchObject({ isError: true, refusedBy: 'hook' });
  });

  it('tells only the person’s own deny as a decline', () => {
    expect(refusalResult('x', { by: 'user', reason: '' }).content).toContain('declined');
    expect(refusalResult('x', { by: 'timeout', reason: '' }).content).toContain('no one answered');
    expect(refusalResult('x', { by: 'stopped', reason: '' })).toMatchObject({ notRun: 'stopped' });
  });
});

describe('runPreToolHooks', () => {
  const call = { tool: 'archive_mail', arguments: { id: 3 }, sessionId: 's1' };

  it('refuses with the reason on a BLOCKED line', async () => {
    const hook = {
      command: `node -e "process.stdin.resume();process.stdin.on('end',()=>console.log('BLOCKED: archiving is off on weekends'))"`,
    };
    expect(await runPreToolHooks([hook], call)).toBe('archiving is off on weekends');
  });

  it('lets a call through when the hook says nothing, and skips hooks that do not match', async () => {
    expect(await runPreToolHooks([{ command: 'cat > /dev/null' }], call)).toBeUndefined();
    expect(await runPreToolHooks([{ match: 'bash', command: 'echo BLOCKED: no' }], call)).toBeUndefined();
  });

  it('hands the call to the hook as JSON on stdin', async () => {
    const hook = {
      command: `node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const c=JSON.parse(s);if(c.arguments.id===3)console.log('BLOCKED: saw '+c.tool)})"`,
    };
    expect(await runPreToolHooks([hook], call)).toBe('saw archive_mail');
  });

  it('refuses when the hook fails, so a policy is never skipped silently', async () => {
    expect(await runPreToolHooks([{ command: 'exit 3' }], call)).toMatch(/failed to run \(exit code 3\)/);
  });

  it("a failed hook's refusal ends with the tail of what it wrote on stderr", async () => {
    const hook = {
      command: `echo 'first line' >&2; echo "cannot reach policy server $(printf 'x%.0s' $(seq 400))" >&2; exit 4`,
    };
    const reason = (await runPreToolHooks([hook], call)) as string;
    expect(reason).toMatch(/^the pre-tool hook failed to run \(exit code 4: …x+\)$/);
    expect(reason.length).toBeLessThan(400);
    expect(await runPreToolHooks([{ command: 'echo policy file missing >&2; exit 1' }], call)).toBe(
      'the pre-tool hook failed to run (exit code 1: policy file missing)',
    );
  });

  it("a config's relative hook command runs in the config file's folder, wherever toolseam was started", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-hooks-'));
    try {
      mkdirSync(join(dir, 'cfg'));
      writeFileSync(
        join(dir, 'cfg', 'check-call.sh'),
        '#!/bin/sh\ncat > /dev/null\necho "BLOCKED: checked in $(basename "$PWD")"\n',
        { mode: 0o755 },
      );
      const config = parseConfig(
        { hooks: { preToolUse: [{ command: './check-call.sh' }] } },
        { baseDir: join(dir, 'cfg'), env: {} },
      );
      expect(process.cwd()).not.toBe(join(dir, 'cfg'));
      expect(await runPreToolHooks(config.hooks, call)).toBe('checked in cfg');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
