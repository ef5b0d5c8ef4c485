import type { NotRunReason, RefusedBy, ToolResult } from '../../core/tool.js';

/** Why a gate refused a call, with what the model should know. */
export interface Refusal {
  readonly by: RefusedBy;
  /** The refuser's own reason, in a few words. */
  readonly reason: string;
  readonly notRun?: NotRunReason;
  /** The reason as a person reads it, when `reason` also speaks to the model. */
  readonly plain?: string;
}

const ADVICE: Record<RefusedBy, (tool: string, reason: string) => string> = {
  agent_tools: (t, r) =>
    `\`${t}\` was not run: ${r}. Use one of the tools you were offered, or tell the person which tool you would need.`,
  deny_list: (t, r) =>
    `\`${t}\` was blocked by a security policy (${r}). This is final: do not rephrase or work around it. ` +
    'Choose an approach that does not need this call, or stop and explain.',
  policy: (t, r) =>
    `\`${t}\` was blocked by a security policy (${r}). This is final: do not rephrase or work around it. ` +
    'Choose an approach that does not need this call, or stop and explain.',
  task_mode: (t, r) =>
    `\`${t}\` was blocked by the read-only gate (${r}). Do not retry the write: use a read-only tool, ` +
    'or stop and describe the change you would make and why.',
  tool_grants: (t, r) =>
    `\`${t}\` was not run: this run's tool grants do not allow it (${r}). Use a tool the run may use, or stop and explain.`,
  hook: (t, r) =>
    `\`${t}\` was blocked by a policy hook (${r}). Do not retry the same call: find an approach that satisfies ` +
    'the policy, or stop and explain the blocker to the person.',
  unknown_tool: (_t, r) =>
    `${r}, so nothing was run. Call tool_search("what you need") to find the right name; names are exact ` +
    'and case-sensitive.',
  withdrawn: (t, r) => `\`${t}\` is no longer available: ${r}, so the call was not run.`,
  preflight: (_t, r) => r,
  user: (t, r) =>
    `the person declined this call to \`${t}\`${r ? ` (${r})` : ''}. Do not retry the same call: take a ` +
    'different approach, or ask the person how to proceed.',
  unattended: (t) =>
    `\`${t}\` was not run: it needs approval, but this run is unattended and nobody can approve it. ` +
    'Use a tool that does not need approval, or finish and report what is left to do.',
  timeout: (t) =>
    `\`${t}\` was not run: no one answered the approval request in time. Do not retry it now: carry on ` +
    'without it, or ask the person whether they want it run.',
  stopped: (t) => `\`${t}\` was not run: the turn was stopped.`,
  loop_breaker: (t, r) =>
    `\`${t}\` was not run: ${r}. Use the result you already have, or change the arguments or the approach.`,
};

/** Why the call was not run, as a person reads it: the reason alone, without the model's advice. */
const PLAIN: Record<RefusedBy, (reason: string) => string> = {
  agent_tools: (r) => r,
  deny_list: (r) => `the deny-list blocks it: ${r}`,
  policy: (r) => r,
  task_mode: (r) => r,
  tool_grants: (r) => r,
  hook: (r) => `a pre-tool hook blocked it: ${r}`,
  unknown_tool: (r) => r,
  withdrawn: (r) => r,
  preflight: (r) => r,
  user: (r) => (r ? `declined at the approval question (${r})` : 'declined at the approval question'),
  unattended: () => 'it needs approval, and this run is unattended, so nobody could approve it',
  timeout: () => 'no one answered the approval request in time',
  stopped: () => 'the turn was stopped',
  loop_breaker: (r) => r,
};

/**
 * The result the model reads for a refused call: the reason in the refuser's words, never a bare
 * "declined"; `reason` carries the same reason for a person, without the advice.
 */
export function refusalResult(tool: string, refusal: Refusal): ToolResult {
  const content = `Error: ${ADVICE[refusal.by](tool, refusal.reason)}`;
  const reason = refusal.plain ?? PLAIN[refusal.by](refusal.reason);
  const notRun = refusal.notRun ?? (refusal.by === 'stopped' ? 'stopped' : undefined);
  return notRun
    ? { content, isError: true, refusedBy: refusal.by, notRun, reason }
    : { content, isError: true, refusedBy: refusal.by, reason };
}

/** A tool's own preflight answer as the call's refusal: an error result marked as the preflight's, else undefined. */
export function preflightRefusal(answer: ToolResult | undefined): ToolResult | undefined {
  if (!answer?.isError) return undefined;
  return { ...answer, notRun: 'refused_by_tool', refusedBy: 'preflight' };
}
