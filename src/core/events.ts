import type { ApprovalDecision, ApprovalRequest } from './approval.js';
import type { JsonObject } from './json.js';
import type { ModelRetry } from './model.js';
import type { NotRunReason, RefusedBy } from './tool.js';

/** How a turn ended. */
export type TurnStatus = 'done' | 'failed' | 'stopped' | 'rejected' | 'limit';

/** Which subagent leaf an event passed up to the parent's stream came from. */
export interface LeafMark {
  readonly batchId: string;
  readonly leafId: string;
  readonly title: string;
}

/** Everything a turn reports to its host, in order. */
export type RuntimeEvent =
  | { readonly type: 'turn-start'; readonly sessionId: string; readonly turnId: string }
  | { readonly type: 'notice'; readonly message: string }
  /**
   * The model provider failed in passing; toolseam waits, then asks again (the answer is still to come).
   * `leaf` is set when the call was a subagent leaf's, passed up to its parent's stream.
   */
  | ({ readonly type: 'model-retry'; readonly leaf?: LeafMark } & ModelRetry)
  /**
   * Nothing of the model's answer has come for `waitedMs` (since the call, or since its last retry):
   * toolseam is still waiting. Sent after a few seconds of silence, then less and less often.
   */
  | { readonly type: 'model-waiting'; readonly waitedMs: number }
  /**
   * The model provider refused the definitions of these tools, and the provider itself points at them:
   * they are quarantined for this provider and model (left out of later turns until a person lifts it,
   * `toolseam tools --on NAME`), and this turn goes on without them when it can (`turnGoesOn`).
   */
  | {
      readonly type: 'tools-quarantined';
      readonly provider: string;
      readonly model: string;
      /** Real names. */
      readonly tools: readonly string[];
      /** What the provider said, in one bounded line ('' when it said nothing). */
      readonly said: string;
      readonly turnGoesOn: boolean;
      /** The sentence a person reads. */
      readonly message: string;
    }
  | { readonly type: 'text-delta'; readonly text: string }
  | {
      readonly type: 'tool-call-start';
      readonly callId: string;
      /** Real name. */
      readonly tool: string;
      readonly arguments: JsonObject;
    }
  | {
      readonly type: 'tool-call-end';
      readonly callId: string;
      readonly tool: string;
      readonly isError: boolean;
      readonly content: string;
      readonly notRun?: NotRunReason;
      readonly refusedBy?: RefusedBy;
      /** For a call the runtime refused: why, in plain words for a person (`content` is what the model reads). */
      readonly reason?: string;
    }
  | { readonly type: 'approval-request'; readonly request: ApprovalRequest }
  | {
      readonly type: 'approval-resolved';
      readonly approvalId: string;
      readonly decision: ApprovalDecision | 'expired' | 'cancelled';
    }
  | {
      readonly type: 'leaf';
      readonly batchId: string;
      readonly leafId: string;
      readonly title: string;
      readonly state: 'started' | 'tool-call' | 'approval-needed' | 'done' | 'failed' | 'timed_out';
      readonly detail?: string;
    }
  | {
      readonly type: 'turn-end';
      readonly turnId: string;
      readonly status: TurnStatus;
      /** The final text of the assistant (done) or the sentence a person reads (other endings). */
      readonly message: string;
      readonly errorCode?: string;
    };
