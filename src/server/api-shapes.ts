import { alwaysLine } from '../core/grant-scope.js';
import type { ApprovalRecord, SessionRecord, StoredMessage } from '../core/session-store.js';

/** A session as the API shows it. */
export function sessionShape(record: SessionRecord, running: boolean) {
  return {
    id: record.id,
    title: record.title,
    agent: record.agent ?? null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    running,
  };
}

/**
 * The conversation as the API shows it: each message with its text; an assistant's calls with their
 * real tool names (from their results, which keep them) and arguments as sent.
 */
export function messageShapes(stored: readonly StoredMessage[]) {
  const realNames = new Map<string, string>();
  for (const m of stored) {
    if (m.message.role === 'tool' && m.tool !== undefined) realNames.set(m.message.toolCallId, m.tool);
  }
  return stored.map((m) => {
    const base = {
      seq: m.seq,
      turnId: m.turnId,
      role: m.message.role,
      text: m.message.content,
      createdAt: m.createdAt,
    };
    if (m.message.role === 'assistant') {
      const calls = m.message.toolCalls ?? [];
      if (calls.length === 0) return base;
      return {
        ...base,
        toolCalls: calls.map((c) => ({
          callId: c.id,
          tool: realNames.get(c.id) ?? c.name,
          arguments: argumentsOf(c.arguments),
        })),
      };
    }
    if (m.message.role === 'tool') {
      return {
        ...base,
        callId: m.message.toolCallId,
        tool: m.tool ?? m.message.name,
        isError: m.message.isError,
      };
    }
    return base;
  });
}

/** A call's arguments as an object when they read as one; else the text the model sent, kept as it is. */
function argumentsOf(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : { _raw: text };
  } catch {
    return { _raw: text };
  }
}

/** An approval as the API shows it, with the sentences a page shows for "always". */
export function approvalShape(a: ApprovalRecord) {
  return {
    id: a.id,
    sessionId: a.sessionId,
    turnId: a.turnId,
    callId: a.callId,
    tool: a.tool,
    arguments: a.arguments,
    risk: a.risk,
    meaning: a.meaning,
    digest: a.digest,
    status: a.status,
    createdAt: a.createdAt,
    always: a.always
      ? {
          scope: a.always,
          session: alwaysLine(a.always, 'session'),
          forever: alwaysLine(a.always, 'forever'),
        }
      : null,
    leafTitle: a.leafTitle ?? null,
    notice: a.notice ?? null,
    scope: a.scope ?? null,
    reason: a.reason ?? null,
    answeredBy: a.answeredBy ?? null,
    answeredAt: a.answeredAt ?? null,
    expiresAt: a.expiresAt ?? null,
  };
}
