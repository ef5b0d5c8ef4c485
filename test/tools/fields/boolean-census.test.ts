import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../src/core/tool.js';
import { declaredBooleans, defineTool, field } from '../../../src/tools/index.js';
import { sampleTools } from './sample-tools.js';

/**
 * The census pattern: pin every boolean a set of tools declares, with how it is read. A tool that starts
 * declaring another boolean fails here until it is added on purpose.
 */
const PINNED: Record<string, string> = {
  'automation_create.catch_up': 'boolean, safe false',
  'automation_create.confirm': 'consent',
  'automation_create.ignore_case': 'boolean, refused when unreadable',
  'create_event.attendees[].optional': 'boolean, safe false',
  'image_generate.edit': 'boolean, safe false',
};

function reading(b: ReturnType<typeof declaredBooleans>[number]): string {
  if (b.kind === 'consent') return 'consent';
  return b.safe === undefined ? 'boolean, refused when unreadable' : `boolean, safe ${b.safe}`;
}

describe('the boolean census', () => {
  it('lists every boolean the sample tools declare, each with how it is read', () => {
    const census = Object.fromEntries(declaredBooleans(sampleTools).map((b) => [b.key, reading(b)]));
    expect(census).toEqual(PINNED);
  });

  it('notices a boolean a tool starts declaring, however deep', () => {
    const grown = defineTool({
      name: 'task_create',
      description: 'Creates a task.',
      fields: {
        title: field.string(),
        steps: field.list(field.object({ text: field.string(), completed: field.boolean({ safe: false }) }), {
          optional: true,
        }),
        repeatable: field.boolean({ safe: false }),
      },
      handler: () => 'ok',
    });
    expect(declaredBooleans([...sampleTools, grown]).map((b) => b.key)).toEqual([
      ...Object.keys(PINNED),
      'task_create.repeatable',
      'task_create.steps[].completed',
    ]);
  });

  it('reads the booleans of a raw declared schema: nested, in items, in unions, in maps, through refs', () => {
    const raw: ToolDefinition = {
      name: 'reset_tools',
      description: 'Activates tool groups.',
      risk: 'safe',
      requiresApproval: false,
      parameters: {
        type: 'object',
        $defs: { flag: { type: 'boolean' } },
        properties: {
          groups: {
            type: 'object',
            properties: { schedule: { $ref: '#/$defs/flag' } },
            additionalProperties: { type: 'boolean' },
          },
          maybe: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
          either: { type: ['boolean', 'string'] },
          rows: { type: 'array', items: { type: 'object', properties: { done: { type: 'boolean' } } } },
          name: { type: 'string' },
        },
      },
    };
    expect(declaredBooleans([raw]).map((b) => [b.path, b.kind])).toEqual([
      ['either', 'boolean'],
      ['groups.*', 'boolean'],
      ['groups.schedule', 'boolean'],
      ['maybe', 'boolean'],
      ['rows[].done', 'boolean'],
    ]);
  });
});
