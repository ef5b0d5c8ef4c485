import { isPlainObject, type JsonSchema } from '../core/json.js';
import { settleLifts } from './lift-paths.js';
import type { LiftedArgument } from './lifted-argument.js';
import { hasKeys } from './node-scan.js';
import { emptyObjectSchema } from './profile.js';
import { type RenamedKey, renameUnsafeKeys } from './renamed-keys.js';
import type { SchemaIssue } from './schema-issue.js';
import { endWalk, Lift, newWalk } from './schema-walk.js';
import { walkNode } from './walk-node.js';

/** What the seam made of a declared schema. */
export type Verdict = 'portable' | 'repaired' | 'lifted' | 'excluded';

/** The outcome of conforming one declared parameter schema to the portable profile. */
export interface ConformResult {
  /** `portable`: offered as declared; `repaired`: a rewritten copy; `lifted`: some arguments travel as JSON text; `excluded`: nothing can carry it. */
  readonly verdict: Verdict;
  /**
   * The schema to offer: the declared object itself when portable, else a copy (unchanged parts may be
   * shared with the input, so treat it as read-only); `undefined` when excluded.
   */
  readonly parameters: JsonSchema | undefined;
  /** Every defect found, in one pass, each marked repaired, lifted or blocking. */
  readonly issues: readonly SchemaIssue[];
  /** Arguments the offered schema carries as JSON text (decode them before checking a call). */
  readonly lifted: readonly LiftedArgument[];
  /** Top-level arguments offered under another key (restore them before checking a call). */
  readonly renamed: readonly RenamedKey[];
}

const NONE: readonly never[] = Object.freeze([]);

/**
 * Conforms a tool's DECLARED parameter schema to the portable profile: every mainstream provider
 * accepts the result, and it accepts every value the declared schema accepts except `null` (an
 * argument is omitted instead). Never mutates `declared`; bounded in depth and size.
 */
export function conformParameters(declared: unknown): ConformResult {
  if (declared === undefined || declared === null) return argumentless(NONE);
  if (declared === true) {
    return argumentless([
      {
        rule: 'root_not_object',
        path: '',
        detail: 'the schema `true` accepts any value',
        action: 'repaired',
        fix: 'offered an object that takes any keys',
      },
    ]);
  }
  if (!isPlainObject(declared)) {
    const shown = (JSON.stringify(declared) ?? String(declared)).slice(0, 40);
    const detail = `the parameters must be an object schema, not ${shown}`;
    return excluded([{ rule: 'root_not_object', path: '', detail, action: 'blocking' }]);
  }
  if (!hasKeys(declared)) return argumentless(NONE);
  const w = newWalk(declared, walkNode);
  const offered = walkNode(w, declared, 0, true);
  const issues = w.issues;
  if (offered instanceof Lift) {
    endWalk(w);
    return excluded([
      ...issues,
      { rule: offered.rule, path: offered.path, detail: offered.detail, action: 'blocking' },
    ]);
  }
  const lifted = settleLifts(w, offered as JsonSchema);
  endWalk(w);
  const { root, renamed } = renameUnsafeKeys(offered as JsonSchema, issues);
  const verdict = issues.length === 0 ? 'portable' : lifted.length > 0 ? 'lifted' : 'repaired';
  return { verdict, parameters: root, issues, lifted, renamed };
}

/** Every defect of a declared schema against the portable profile (empty when it is portable as declared). */
export function schemaIssues(declared: unknown): readonly SchemaIssue[] {
  return conformParameters(declared).issues;
}

function argumentless(issues: readonly SchemaIssue[]): ConformResult {
  const verdict = issues.length === 0 ? 'portable' : 'repaired';
  return { verdict, parameters: emptyObjectSchema(), issues, lifted: NONE, renamed: NONE };
}

function excluded(issues: readonly SchemaIssue[]): ConformResult {
  return { verdict: 'excluded', parameters: undefined, issues, lifted: NONE, renamed: NONE };
}
