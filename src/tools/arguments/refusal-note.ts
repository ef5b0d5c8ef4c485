import type { ToolResult } from '../../core/tool.js';
import { type ArgumentProblem, renderProblems } from './argument-problem.js';
import {
  type MissingOptions,
  type MistypedOptions,
  missingArguments,
  mistypedArguments,
} from './declared-arguments.js';

/** Which declared-schema check refused a call. */
export type DeclaredCheck = 'missing' | 'mistyped';

/** A schema longer than this (as JSON text) is not shown in a note; the note points at `tool_schema`. */
export const MAX_SHOWN_SCHEMA = 2000;

const WORDING: Record<DeclaredCheck, { readonly why: string; readonly again: string }> = {
  missing: {
    why: 'the call leaves out an argument its input schema requires.',
    again: 'Call it again with every required argument.',
  },
  mistyped: {
    why: 'an argument is not of the type its input schema declares.',
    again: 'Call it again with each argument of the type its schema declares.',
  },
};

/**
 * The note a call refused by a declared-schema check gets: what is missing or mistyped, the schema itself
 * when it is small (else a pointer to `tool_schema`), and how to call again.
 */
export function argumentRefusalNote(
  tool: string,
  check: DeclaredCheck,
  problems: readonly ArgumentProblem[],
  schema: unknown,
): string {
  const { why, again } = WORDING[check];
  const lines = [`${tool} was not run: ${why}`];
  for (const line of renderProblems(problems).split('\n')) lines.push(`- ${line}`);
  const shown = schema !== undefined && schema !== null ? JSON.stringify(schema) : undefined;
  lines.push(
    shown !== undefined && shown.length <= MAX_SHOWN_SCHEMA
      ? `Its input schema: ${shown}`
      : `Call tool_schema("${tool}") to see its input schema.`,
  );
  lines.push(again);
  return lines.join('\n');
}

/** The refusal result of a declared-schema check, marked not-run and carrying the problems on `data`. */
export function argumentRefusal(
  tool: string,
  check: DeclaredCheck,
  problems: readonly ArgumentProblem[],
  schema: unknown,
): ToolResult {
  return {
    content: argumentRefusalNote(tool, check, problems, schema),
    isError: true,
    notRun: check === 'missing' ? 'missing_arguments' : 'mistyped_arguments',
    refusedBy: 'preflight',
    data: { code: `${check}_arguments`, problems },
  };
}

/**
 * Preflight of the required arguments: the refusal when the call lacks what `declaredSchema` requires, else
 * undefined. `shownSchema` is the schema the note shows (e.g. the offered copy); it defaults to the declared one.
 */
export function refuseMissingArguments(
  tool: string,
  args: unknown,
  declaredSchema: unknown,
  shownSchema: unknown = declaredSchema,
  options: MissingOptions = {},
): ToolResult | undefined {
  const problems = missingArguments(args, declaredSchema, options);
  return problems.length === 0 ? undefined : argumentRefusal(tool, 'missing', problems, shownSchema);
}

/** Preflight of the declared types (an MCP server's validator): the refusal, else undefined. */
export function refuseMistypedArguments(
  tool: string,
  args: unknown,
  declaredSchema: unknown,
  options: MistypedOptions = {},
): ToolResult | undefined {
  const problems = mistypedArguments(args, declaredSchema, options);
  return problems.length === 0 ? undefined : argumentRefusal(tool, 'mistyped', problems, declaredSchema);
}
