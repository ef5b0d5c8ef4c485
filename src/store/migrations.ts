import type { Migration } from './migrate.js';
import { v1Conversation } from './migrations/v1-conversation.js';
import { v2ToolCalls } from './migrations/v2-tool-calls.js';
import { v3Approvals } from './migrations/v3-approvals.js';
import { v4Grants } from './migrations/v4-grants.js';
import { v5Audit } from './migrations/v5-audit.js';
import { v6Memories } from './migrations/v6-memories.js';
import { v7Tasks } from './migrations/v7-tasks.js';
import { v8Batches } from './migrations/v8-batches.js';
import { v9TurnGates } from './migrations/v9-turn-gates.js';
import { v10OwnerHeartbeat } from './migrations/v10-owner-heartbeat.js';
import { v11LeafSessions } from './migrations/v11-leaf-sessions.js';
import { v12TurnModel } from './migrations/v12-turn-model.js';
import { v13GrantScopes } from './migrations/v13-grant-scopes.js';
import { v14ArgumentsOnce } from './migrations/v14-arguments-once.js';
import { v15TurnConfig } from './migrations/v15-turn-config.js';
import { v16ToolQuarantine } from './migrations/v16-tool-quarantine.js';
import { v17UnfinishedBySession } from './migrations/v17-unfinished-by-session.js';
import { v18ToolSwitches } from './migrations/v18-tool-switches.js';
import { v19TurnEvents } from './migrations/v19-turn-events.js';
import { v20NotifyOutbox } from './migrations/v20-notify-outbox.js';
import { v21Automations } from './migrations/v21-automations.js';
import { v22LongSessions } from './migrations/v22-long-sessions.js';
import { v23EmbeddingVectors } from './migrations/v23-embedding-vectors.js';
import { v24Users } from './migrations/v24-users.js';
import { v25FewerIndexWrites } from './migrations/v25-fewer-index-writes.js';

/** Every schema step, in order. Append only: a released step is never edited. */
export const MIGRATIONS: readonly Migration[] = [
  v1Conversation,
  v2ToolCalls,
  v3Approvals,
  v4Grants,
  v5Audit,
  v6Memories,
  v7Tasks,
  v8Batches,
  v9TurnGates,
  v10OwnerHeartbeat,
  v11LeafSessions,
  v12TurnModel,
  v13GrantScopes,
  v14ArgumentsOnce,
  v15TurnConfig,
  v16ToolQuarantine,
  v17UnfinishedBySession,
  v18ToolSwitches,
  v19TurnEvents,
  v20NotifyOutbox,
  v21Automations,
  v22LongSessions,
  v23EmbeddingVectors,
  v24Users,
  v25FewerIndexWrites,
];
