import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/core/tool.js';
import { servedBy } from '../../src/mcp-surface/index.js';

const tool = (name: string, group: string, own: boolean, provider: string): ToolDefinition => ({
  name,
  description: '',
  parameters: undefined,
  risk: 'safe',
  requiresApproval: false,
  provider,
  group: { key: group, own, purpose: '' },
});

const TOOLS = [
  tool('read_file', 'files', true, 'builtin-files'),
  tool('bash', 'shell', true, 'builtin-shell'),
  tool('ask_user', 'conversation', true, 'builtin-ask'),
  tool('memory_save', 'memory', true, 'builtin-memory'),
  tool('task_list', 'tasks', true, 'builtin-tasks'),
  tool('notes_add', 'notes', false, 'notes'),
  tool('mcp/github/create_issue', 'mcp/github', false, 'mcp/github'),
];

const served = (patterns?: string[]) => TOOLS.filter(servedBy(patterns)).map((t) => t.name);

describe('which tools mcp-serve serves', () => {
  it('by default: the file, memory and task tools and the apps, never the shell, ask_user or an MCP server', () => {
    expect(served()).toEqual(['read_file', 'memory_save', 'task_list', 'notes_add']);
    expect(served([])).toEqual(served());
  });

  it('with patterns: what they match, and another MCP server only by a pattern naming it from its start', () => {
    expect(served(['*'])).toEqual(TOOLS.map((t) => t.name).filter((n) => n !== 'mcp/github/create_issue'));
    expect(served(['bash', 'notes_*'])).toEqual(['bash', 'notes_add']);
    expect(served(['mcp/github/*'])).toEqual(['mcp/github/create_issue']);
    expect(served(['*/create_issue'])).toEqual([]);
  });
});
