import type { GrantScope } from './grant-scope.js';
import type { JsonObject } from './json.js';
import type { RiskLevel } from './tool.js';

/** How calls that ask are answered: ask a person, approve everything, or refuse everything. */
export type ApprovalPolicy = 'ask' | 'auto' | 'deny';

/** A call waiting for a person's answer. */
export interface ApprovalRequest {
  readonly id: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly callId: string;
  /** The tool's real name. */
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly risk: RiskLevel;
  /** One sentence: what approving will do. */
  readonly meaning: string;
  /** Digest of tool + arguments; an answer is bound to exactly this call. */
  readonly digest: string;
  readonly createdAt: string;
  /** Set when a subagent leaf asks: the leaf's title. */
  readonly leafTitle?: string;
  /**
   * What answering "always" would let run from now on without asking (`alwaysLine` words it). Absent on
   * a request stored by an earlier toolseam, which can be answered yes or no only.
   */
  readonly always?: GrantScope;
  /** Something to read before answering, e.g. why a standing permission of an earlier version no longer answers. */
  readonly notice?: string;
}

/** A person's answer to an approval request. */
export type ApprovalDecision =
  | { readonly kind: 'approve'; readonly always?: 'session' | 'forever' }
  | { readonly kind: 'deny'; readonly reason?: string };
