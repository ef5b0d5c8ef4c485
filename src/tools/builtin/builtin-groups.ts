import type { ToolGroup } from '../../core/tool.js';

/** The platform's own tool groups, each with the one line the catalog shows for it. */
export const BUILTIN_GROUPS = {
  files: {
    key: 'files',
    own: true,
    purpose: 'Read, search, create and edit files inside the workspace folders.',
  },
  shell: { key: 'shell', own: true, purpose: 'Run shell commands in the first workspace folder.' },
  memory: {
    key: 'memory',
    own: true,
    purpose: 'Remember facts and preferences across conversations, and recall them later.',
  },
  tasks: { key: 'tasks', own: true, purpose: "Keep the person's to-do list: add, list and update tasks." },
  automations: {
    key: 'automations',
    own: true,
    purpose: 'Schedule prompts to run unattended at set times, and list, change or delete them.',
  },
  conversation: {
    key: 'conversation',
    own: true,
    purpose: 'Ask the person a question in the middle of a turn and wait for the answer.',
  },
} as const satisfies Record<string, ToolGroup>;

/** The key of one of the platform's own groups. */
export type BuiltinGroupKey = keyof typeof BUILTIN_GROUPS;
