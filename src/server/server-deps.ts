import type { Runtime } from '../runtime/runtime.js';
import type { Access } from './access.js';
import type { TurnHub } from './turn-hub.js';

/** What the routes share: the runtime, the hub of running turns, who may come in, and whether the server is stopping. */
export interface ServerDeps {
  readonly runtime: Runtime;
  readonly hub: TurnHub;
  readonly access: Access;
  readonly version: string;
  /** The built page (`dist/web/`); absent or missing: `/` says how to build it. */
  readonly webRoot?: string | undefined;
  /** How long a stream may stay silent before a keep-alive comment (default 15 s). */
  readonly keepAliveMs?: number | undefined;
  /** Set once SIGTERM (or `close`) came: new turns are refused. */
  readonly state: { stopping: boolean };
  /** Hosted mode: turns go through the job queue (`start-server.ts`). */
  readonly queued?: QueuedTurns;
}

/** Starts turns through the job queue (hosted mode). */
export type QueuedTurns = (
  sessionId: string,
  text: string,
  mode: 'agent' | 'plan' | undefined,
) => Promise<string>;
