import type { RuntimeEvent } from '../../../src/core/events.js';
import type { ScriptRequest } from '../../../src/testing/index.js';
import { defineTool, field, inProcessProvider } from '../../../src/tools/index.js';

/** A full leaf contract for `task`, with `title`; override any key. */
export function contract(
  task: string,
  title: string,
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    task,
    title,
    objective: `Finish this: ${task}`,
    output_format: 'One short sentence of plain text',
    boundary: 'Touch nothing beyond what the task names',
    ...over,
  };
}

/** A leaf's `leaf` events, by state. */
export function leafStates(events: readonly RuntimeEvent[], title: string): string[] {
  return events
    .filter((e) => e.type === 'leaf' && e.title === title)
    .map((e) => (e as { state: string }).state);
}

/** True for a request some leaf made (its first user message is a leaf prompt naming `task`). */
export function fromLeaf(task: string): (r: ScriptRequest) => boolean {
  return (r) => r.lastUserMessage.includes(`Task: ${task}`);
}

/** A tool that reports where a call's file tools may write (what the leaf's session passed down). */
export function scopeProvider() {
  const probe = defineTool({
    name: 'where_may_i_write',
    description: 'Report the folders this call may write and the ones it must not.',
    risk: 'safe',
    readOnly: true,
    handler: (_args, ctx) =>
      `writable=${JSON.stringify(ctx.writable ?? null)} offLimits=${JSON.stringify(ctx.offLimits ?? null)}`,
  });
  const note = defineTool({
    name: 'save_note',
    description: 'Save a short note.',
    risk: 'caution',
    asks: false,
    fields: { text: field.string({ maxLength: 200 }) },
    handler: (args) => `saved ${args.text}`,
  });
  return inProcessProvider({ name: 'scope', tools: [probe, note] });
}
