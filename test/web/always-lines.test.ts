import { describe, expect, it } from 'vitest';
import { alwaysLines } from '../../web/src/always-lines.js';
import type { Approval } from '../../web/src/api-types.js';

const base: Approval = {
  id: 'a1',
  sessionId: 's1',
  turnId: 't1',
  callId: 'c1',
  tool: 'bash',
  arguments: { command: 'ls -a' },
  risk: 'medium',
  meaning: 'runs ls -a',
  createdAt: '2026-12-06T00:00:00Z',
};

describe('alwaysLines', () => {
  it("takes the API's sentences as they are", () => {
    const always = { scope: { kind: 'command', summary: 'run `ls …`' }, session: 'S', forever: 'F' };
    expect(alwaysLines({ ...base, always })).toEqual({ session: 'S', forever: 'F' });
  });

  it("words a stream's scope for each reach, with why it covers nothing wider", () => {
    const always = {
      kind: 'exact-command',
      summary: 'run `ls; rm x`',
      narrowed: 'the command chains another',
    };
    expect(alwaysLines({ ...base, always })).toEqual({
      session: 'always: run `ls; rm x` in this session without asking (the command chains another)',
      forever: 'always (every session): run `ls; rm x` without asking (the command chains another)',
    });
  });

  it('offers no "always" for an approval without a scope', () => {
    expect(alwaysLines(base)).toBeUndefined();
    expect(alwaysLines({ ...base, always: null })).toBeUndefined();
  });
});
