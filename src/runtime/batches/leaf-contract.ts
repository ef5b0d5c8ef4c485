import type { JsonObject } from '../../core/json.js';
import { headOf } from '../../core/text-cut.js';

/** What a leaf may do: only look things up, or change things (inside its `writes`). */
export type LeafCapability = 'research' | 'mutating';

/** The keys a leaf's contract may have, in the order the model is told them. */
export const LEAF_KEYS = [
  'task',
  'title',
  'objective',
  'output_format',
  'boundary',
  'capability',
  'writes',
  'off_limits',
] as const;

/** The declarations that must be explicit (and not thin) in a batch of several leaves. */
export const DECLARATIONS = ['objective', 'output_format', 'boundary'] as const;

/** One leaf's compiled contract, as stored with the leaf. */
export interface LeafContract {
  readonly task: string;
  readonly objective: string;
  readonly output_format: string;
  readonly boundary: string;
  readonly capability: LeafCapability;
  /** Paths the leaf may change, as declared (the file tools resolve them against the workspace). */
  readonly writes: readonly string[];
  /** Paths the leaf must not change, as declared. */
  readonly off_limits: readonly string[];
}

/** What a lone leaf given as plain text runs with. */
export const LONE_LEAF_DEFAULTS = {
  objective: 'Carry out the task and report what you found or did.',
  output_format: 'A short plain-text report.',
  boundary: 'Do only this task and change nothing it does not need.',
} as const;

/** A title made from the task when a lone leaf has none: its first line, cut to a few words. */
export function titleFromTask(task: string): string {
  const line = task.split('\n')[0]?.trim() ?? '';
  return line.length <= 60 ? line : `${headOf(line, 57).trimEnd()}...`;
}

/** The contract as JSON for the store. */
export function contractJson(contract: LeafContract): JsonObject {
  return { ...contract, writes: [...contract.writes], off_limits: [...contract.off_limits] };
}

/** Reads a stored contract back (the store keeps what `contractJson` wrote). */
export function contractFromJson(json: JsonObject): LeafContract {
  const text = (key: string): string => (typeof json[key] === 'string' ? (json[key] as string) : '');
  const paths = (key: string): string[] => {
    const value = json[key];
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  };
  return {
    task: text('task'),
    objective: text('objective'),
    output_format: text('output_format'),
    boundary: text('boundary'),
    capability: json['capability'] === 'mutating' ? 'mutating' : 'research',
    writes: paths('writes'),
    off_limits: paths('off_limits'),
  };
}

/** The message a leaf's child session starts from: its whole contract, in plain words. */
export function leafPrompt(title: string, contract: LeafContract): string {
  const lines = [
    `You are working on one part ("${title}") of a larger piece of work that another assistant split up. ` +
      'Do this part only; your final message is what goes back as its result.',
    '',
    `Task: ${contract.task}`,
    `Objective (what counts as done): ${contract.objective}`,
    `Output format (your final message must follow it): ${contract.output_format}`,
    `Boundary (stay within it): ${contract.boundary}`,
  ];
  if (contract.capability === 'research') {
    lines.push('You may only look things up: change nothing.');
  } else {
    const writes = contract.writes.length > 0 ? contract.writes.join(', ') : 'nothing on disk';
    lines.push(`You may change things; on disk, only inside: ${writes}.`);
  }
  if (contract.off_limits.length > 0) {
    lines.push(`Never change anything inside: ${contract.off_limits.join(', ')}.`);
  }
  return lines.join('\n');
}
