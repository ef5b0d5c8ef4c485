import { afterEach, describe } from 'vitest';
import type { SessionStore } from '../../src/core/session-store.js';
import { approvalCases } from './contract/approval-cases.js';
import { batchCases } from './contract/batch-cases.js';
import { grantAuditCases } from './contract/grant-audit-cases.js';
import { inputCases } from './contract/input-cases.js';
import { listCases } from './contract/list-cases.js';
import { memoryTaskCases } from './contract/memory-task-cases.js';
import { outboxCases } from './contract/outbox-cases.js';
import { quarantineCases } from './contract/quarantine-cases.js';
import { referenceCases } from './contract/reference-cases.js';
import { sessionCases } from './contract/session-cases.js';
import { sessionDeleteCases } from './contract/session-delete-cases.js';
import { toolCallCases } from './contract/tool-call-cases.js';
import { toolSwitchCases } from './contract/tool-switch-cases.js';
import { turnEventCases } from './contract/turn-event-cases.js';
import { turnOwnerCases } from './contract/turn-owner-cases.js';
import { userCases } from './contract/user-cases.js';
import { vectorCacheCases } from './contract/vector-cache-cases.js';

/** A store implementation as the contract opens it: fresh stores, a second connection, and the clean-up. */
export interface StoreSubject {
  /** A fresh, empty store; `now` (epoch milliseconds) is its clock when given, which the store must use. */
  readonly open: (options?: { readonly now?: () => number }) => Promise<SessionStore>;
  /**
   * Another connection to the database `store` uses, as a second process would open it (also after
   * `store` was closed: what was written must still be there).
   */
  readonly reopen: (store: SessionStore) => Promise<SessionStore>;
  /** Closes and removes everything opened since the last clean-up; it runs after each case. */
  readonly cleanup: () => Promise<void>;
}

/**
 * The behaviour every `SessionStore` implementation owes the runtime, run with vitest against `subject`:
 * sessions, turns and their compare-and-set, messages and paging, tool calls and their exactly-once
 * claim, approvals (answered twice, closed, bound to another call), grants, audit, quarantine, memories,
 * tasks and subagent batches, the order of every list, and the refusals of bad input.
 */
export function sessionStoreContract(name: string, subject: StoreSubject): void {
  describe(`SessionStore contract: ${name}`, () => {
    afterEach(() => subject.cleanup());
    sessionCases(subject);
    turnOwnerCases(subject);
    toolCallCases(subject);
    approvalCases(subject);
    grantAuditCases(subject);
    quarantineCases(subject);
    toolSwitchCases(subject);
    outboxCases(subject);
    sessionDeleteCases(subject);
    memoryTaskCases(subject);
    batchCases(subject);
    turnEventCases(subject);
    listCases(subject);
    referenceCases(subject);
    inputCases(subject);
    userCases(subject);
    vectorCacheCases(subject);
  });
}
