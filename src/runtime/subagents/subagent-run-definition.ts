import type { ToolDefinition } from '../../core/tool.js';
import { field, offeredSchema } from '../../tools/index.js';
import { MAX_LEAVES, MAX_TITLE_CHARS, MIN_DECLARATION_CHARS } from '../batches/batch-finding.js';

const AT_LEAST = `At least ${MIN_DECLARATION_CHARS} characters.`;

const LEAF = field.object(
  {
    task: field.string({ description: 'What this leaf does.' }),
    title: field.string({
      maxLength: MAX_TITLE_CHARS,
      description: 'A short name for the leaf; the person sees it next to its progress and its questions.',
    }),
    objective: field.string({ description: `What counts as done. ${AT_LEAST}` }),
    output_format: field.string({ description: `The shape its answer must take. ${AT_LEAST}` }),
    boundary: field.string({ description: `What the leaf must not do or touch. ${AT_LEAST}` }),
    capability: field.string({
      enum: ['research', 'mutating'],
      optional: true,
      description: 'research (only looks things up; the default) or mutating (changes things).',
    }),
    writes: field.list(field.string(), {
      optional: true,
      description: 'Paths a mutating leaf may change; its file tools change nothing else.',
    }),
    off_limits: field.list(field.string(), {
      optional: true,
      description: 'Paths the leaf must never change.',
    }),
  },
  { description: 'One leaf and its contract.' },
);

/** The field specs of `subagent_run` (the offered schema comes from these). */
export const SUBAGENT_RUN_FIELDS = {
  task: field.string({
    optional: true,
    description: 'One piece of work to hand to a single subagent (use tasks for several).',
  }),
  tasks: field.list(LEAF, {
    optional: true,
    maxItems: MAX_LEAVES,
    description: `Several pieces of work run side by side, one leaf each (at most ${MAX_LEAVES}).`,
  }),
  agents: field.list(field.string(), {
    optional: true,
    description: 'The agent that runs each task, one per task in the same order (empty text: the default).',
  }),
};

/** `subagent_run` as the model is offered it (portable as declared). */
export const SUBAGENT_RUN_DEFINITION: ToolDefinition = {
  name: 'subagent_run',
  description:
    'Split work into leaves that subagents carry out side by side, then get every leaf’s result back in ' +
    'one answer. Each leaf runs in its own session with its own tools and a time limit. A batch whose ' +
    'leaves lack an explicit contract is refused before anything starts, with what to fix.',
  parameters: offeredSchema(SUBAGENT_RUN_FIELDS),
  risk: 'caution',
  requiresApproval: false,
};
