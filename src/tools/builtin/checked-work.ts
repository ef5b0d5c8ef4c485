import type { ToolContext } from '../../core/tool.js';
import { type Refusal, refusalResult, type ToolOutput } from '../fields/define-tool.js';

/** What a tool's check found: the refusal its call gets, or what the work needs. */
export type Checked<P> = { readonly refusal: Refusal } | { readonly ready: P };

/** A refusal with its reason, the hints that help the model recover, and a machine-readable code. */
export function refuse(
  code: string,
  message: string,
  hints: readonly string[] = [],
  extra: Record<string, unknown> = {},
): { readonly refusal: Refusal } {
  return { refusal: { message, ...(hints.length > 0 ? { hints } : {}), data: { code, ...extra } } };
}

/** What the work needs, once every check has passed. */
export function ready<P>(value: P): { readonly ready: P } {
  return { ready: value };
}

/**
 * A tool's preflight and handler made from ONE check: the preflight answers the check's refusal, and the
 * handler does the work with what that check found. So what preflight declares and what invoke refuses cannot
 * drift apart. A handler always works from a check of its own call: the boundary runs the preflight on the
 * very arguments object the handler then receives, and a handler reached any other way checks again.
 */
export function checkedWork<A extends object, P>(
  check: (args: A, ctx: ToolContext) => Checked<P> | Promise<Checked<P>>,
  work: (ready: P, args: A, ctx: ToolContext) => ToolOutput | Promise<ToolOutput>,
) {
  // Keyed by the arguments object of one call; a later call (after an approval) reads new arguments.
  const found = new WeakMap<A, Checked<P>>();
  return {
    async preflight(args: A, ctx: ToolContext): Promise<Refusal | undefined> {
      const checked = await check(args, ctx);
      found.set(args, checked);
      return 'refusal' in checked ? checked.refusal : undefined;
    },
    async handler(args: A, ctx: ToolContext): Promise<ToolOutput> {
      const checked = found.get(args) ?? (await check(args, ctx));
      found.delete(args);
      if ('refusal' in checked) return refusalResult(checked.refusal);
      return work(checked.ready, args, ctx);
    },
  };
}
