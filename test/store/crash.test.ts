import { describe, expect, it } from 'vitest';
import { BACK_ENDS, openedOn } from './back-ends.js';
import { startChild } from './child-process.js';

describe.each(BACK_ENDS)('a process killed while an approval waits (%s)', (_name, fresh) => {
  it('leaves the approval pending for the next process, which answers it and runs the call once', async () => {
    const path = await fresh();
    const child = startChild('die-waiting', [path]);
    const { approvalId, turnId } = JSON.parse(await child.nextLine()) as {
      approvalId: string;
      turnId: string;
    };
    expect(await child.nextLine()).toBe('holding');

    // While the child holds its write transaction, another process's reads go on without waiting.
    const onlooker = await openedOn(path, { busyTimeoutMs: 0 });
    expect((await onlooker.listApprovals({ status: 'pending' })).map((a) => a.id)).toEqual([approvalId]);
    await onlooker.close();

    child.process.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');

    const next = await openedOn(path);
    const [pending] = await next.listApprovals({ status: 'pending' });
    expect(pending).toMatchObject({
      id: approvalId,
      turnId,
      callId: 'call-1',
      tool: 'bash',
      arguments: { path: 'backups/2019' },
      risk: 'destructive',
      meaning: 'Deletes backups/2019',
    });
    expect((await next.listTurns({ status: 'waiting_approval' })).map((t) => t.id)).toEqual([turnId]);
    expect(await next.listAudit({ kind: 'never.committed' })).toEqual([]);

    await next.answerApproval(
      approvalId,
      { kind: 'approve' },
      { digest: pending!.digest, answeredBy: 'cli' },
    );
    expect(
      await next.setTurnStatus(turnId, 'running', { from: ['waiting_approval'], owner: 'pid:new' }),
    ).toBe(true);
    expect(await next.claimToolCall(turnId, 'call-1', 'pid:new')).toBe(true);
    expect(await next.claimToolCall(turnId, 'call-1', 'pid:new')).toBe(false);
    await next.recordToolResult(turnId, 'call-1', { status: 'done', content: 'removed', isError: false });
    expect(await next.setTurnStatus(turnId, 'done')).toBe(true);
    expect(await next.getToolCall(turnId, 'call-1')).toMatchObject({ status: 'done', claimedBy: 'pid:new' });
  }, 60_000);
});
