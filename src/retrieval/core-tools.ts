import type { RetrievalTool } from './retrieval-tool.js';

/** Tools every turn needs whatever it is about: files, the shell, asking the user, the meta-tools. */
const CORE_NAMES: ReadonlySet<string> = new Set([
  'bash',
  'read_file',
  'write_file',
  'edit_file',
  'grep',
  'glob',
  'list_dir',
  'tool_search',
  'tool_schema',
  'skill_search',
  'skill_invoke',
  'tool_result_get',
  'ask_user',
  'finish',
]);

/** Name parts that make a tool core wherever they appear (a server's own `ask_user`, say). */
const CORE_PARTS: readonly string[] = [
  'ask_user',
  'ask_followup',
  'attempt_completion',
  'memory_recall',
  'tool_search',
];

/** True for a tool offered with its full schema every turn: declared core, or a core name. */
export function isCore(tool: Pick<RetrievalTool, 'name' | 'core'>): boolean {
  if (tool.core === true) return true;
  const name = tool.name.toLowerCase();
  return CORE_NAMES.has(name) || CORE_PARTS.some((part) => name.includes(part));
}
