import type { DenyRule, TaskMode } from '../../runtime-options.js';
import type { SessionAgent } from '../../surface/tool-access.js';
import type { PreToolHook } from './pre-tool-hooks.js';

/** The policies that screen a call before anyone is asked. */
export interface GatePolicy {
  readonly agent?: SessionAgent;
  readonly mode: TaskMode;
  readonly denyList: readonly DenyRule[];
  /** Globs this run may use at all (a leaf's grants); every tool when undefined. */
  readonly grants?: readonly string[] | undefined;
  readonly hooks: readonly PreToolHook[];
}
