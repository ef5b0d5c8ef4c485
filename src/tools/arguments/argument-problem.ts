import { ToolseamError } from '../../core/errors.js';
import { headOf } from '../../core/text-cut.js';

/** Machine-readable kinds of argument problems. */
export type ProblemCode =
  | 'not_object'
  | 'unknown_argument'
  | 'duplicate_argument'
  | 'required'
  | 'wrong_type'
  | 'invalid_json'
  | 'unreadable_boolean'
  | 'consent'
  | 'too_long'
  | 'too_short'
  | 'not_allowed'
  | 'pattern'
  | 'too_small'
  | 'too_large'
  | 'too_many'
  | 'too_few';

/** One thing wrong with a call's arguments. `path` is `''` for the arguments as a whole. */
export interface ArgumentProblem {
  /** Where, in declared names: `title`, `filter.since`, `tags[2]`. */
  readonly path: string;
  readonly code: ProblemCode;
  /** What is wrong, in words a model can act on (without the path). */
  readonly message: string;
}

/** Renders problems as compact lines, one per problem: `field: what is wrong`. */
export function renderProblems(problems: readonly ArgumentProblem[]): string {
  return problems.map((p) => `${p.path === '' ? 'arguments' : p.path}: ${p.message}`).join('\n');
}

/** A call's arguments do not fit what the tool takes. `problems` is the structured list. */
export class ToolArgumentsError extends ToolseamError {
  readonly tool: string;
  readonly problems: readonly ArgumentProblem[];

  constructor(tool: string, problems: readonly ArgumentProblem[]) {
    super('invalid_arguments', renderProblems(problems));
    this.tool = tool;
    this.problems = problems;
  }
}

/** A short description of a value as a model sent it: `the text "abc"`, `the number 7`, `a list`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  switch (typeof value) {
    case 'string': {
      const shown = value.length > 40 ? `${headOf(value, 37)}...` : value;
      return value.trim() === '' ? 'a blank text' : `the text ${JSON.stringify(shown)}`;
    }
    case 'number':
      return `the number ${value}`;
    case 'boolean':
      return `the boolean ${value}`;
    default:
      if (Array.isArray(value)) {
        return value.length === 0
          ? 'an empty list'
          : `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
      }
      return 'an object';
  }
}
