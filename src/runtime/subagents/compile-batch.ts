import { describeValue, nearMiss } from '../../tools/index.js';
import { type BatchFinding, CONTRACT_THRESHOLD, error, MAX_LEAVES } from '../batches/batch-finding.js';
import type { CompiledBatch, CompiledLeaf, CompileOptions } from './compiled-batch.js';
import { contractOf, findOverlappingWrites } from './leaf-rules.js';
import { readLeafItem, readList } from './read-declarations.js';
import { readLeaf } from './read-leaf.js';

/** The arguments `subagent_run` takes at the top level. */
export const BATCH_ARGUMENTS = ['task', 'tasks', 'agents'] as const;

/**
 * Compiles `subagent_run`'s arguments into leaves with explicit contracts, collecting every finding at
 * once. Pure: it reads nothing but its inputs.
 */
export function compileBatch(args: Record<string, unknown>, options: CompileOptions): CompiledBatch {
  const findings: BatchFinding[] = [];
  if (options.nested) {
    findings.push(
      error(
        'nested_batch',
        'this call comes from inside a leaf of another batch, and leaves may not start batches of their own.',
        'Do the work in this leaf directly, or finish and let the assistant that started it split the work.',
      ),
    );
  }
  checkTopKeys(args, findings);
  const items = readItems(args, findings);
  const agents = readAgents(args, items.length, options.knownAgents, findings);
  if (items.length > MAX_LEAVES) {
    findings.push(
      error(
        'too_many_leaves',
        `the batch has ${items.length} leaves; one call starts at most ${MAX_LEAVES}.`,
        `Merge related leaves, or start the work in batches of up to ${MAX_LEAVES}.`,
      ),
    );
  }
  const drafts = items.map((item, i) => {
    const read = readLeafItem(item);
    if (read.ok) return readLeaf(read.value, i, findings);
    findings.push(
      error(
        'leaf_declaration_type',
        `it ${read.why}.`,
        'Send each leaf as an object with task, title, objective, output_format and boundary.',
        i,
      ),
    );
    return undefined;
  });
  const full = items.length >= CONTRACT_THRESHOLD;
  const leaves: CompiledLeaf[] = [];
  drafts.forEach((draft, i) => {
    if (!draft) return;
    const leaf = contractOf(draft, i, full, options, findings);
    const agent = agents[i];
    if (leaf) leaves.push(agent ? { ...leaf, agent } : leaf);
  });
  findOverlappingWrites(leaves, options, findings);
  const titles = drafts.map((d) => d?.title);
  return { ok: !findings.some((f) => f.severity === 'error'), leaves, findings: sorted(findings), titles };
}

function checkTopKeys(args: Record<string, unknown>, findings: BatchFinding[]): void {
  const accepted = BATCH_ARGUMENTS.join(', ');
  for (const key of Object.keys(args)) {
    if ((BATCH_ARGUMENTS as readonly string[]).includes(key)) continue;
    const near = nearMiss(key, BATCH_ARGUMENTS);
    findings.push(
      error(
        'unknown_argument',
        `subagent_run takes ${accepted}; "${key}" is none of them.`,
        near
          ? `Did you mean "${near}"? Rename it.`
          : 'Drop it; a leaf\'s details go inside its item of "tasks".',
      ),
    );
  }
}

function readItems(args: Record<string, unknown>, findings: BatchFinding[]): unknown[] {
  const task = args['task'];
  const hasTask = task !== undefined && task !== null && !(typeof task === 'string' && task.trim() === '');
  const tasks = readList(args['tasks']);
  if (!tasks.ok) {
    findings.push(
      error('argument_type', `"tasks" ${tasks.why}.`, 'Send "tasks" as a list with one item per leaf.'),
    );
    return hasTask ? [task] : [];
  }
  if (hasTask && tasks.value.length > 0) {
    findings.push(
      error(
        'task_and_tasks',
        'the call gives both "task" and "tasks".',
        'Put every leaf in "tasks" (or send one leaf alone as "task").',
      ),
    );
  }
  if (tasks.value.length > 0) return tasks.value;
  if (hasTask) return [task];
  findings.push(
    error(
      'no_task',
      'the call gives no task, so there is nothing to start.',
      'Send "task" with one piece of work, or "tasks" with one item per leaf.',
    ),
  );
  return [];
}

function readAgents(
  args: Record<string, unknown>,
  count: number,
  known: readonly string[],
  findings: BatchFinding[],
): (string | undefined)[] {
  if (args['agents'] === undefined || args['agents'] === null) return [];
  const list = readList(args['agents']);
  if (!list.ok) {
    findings.push(
      error(
        'argument_type',
        `"agents" ${list.why}.`,
        'Send "agents" as a list of agent names, one per task.',
      ),
    );
    return [];
  }
  if (list.value.length !== count) {
    findings.push(
      error(
        'agents_mismatch',
        `"agents" names ${list.value.length} agent${list.value.length === 1 ? '' : 's'} for ${count} task${count === 1 ? '' : 's'}.`,
        'Give exactly one agent per task, in the same order (an empty text keeps the default agent).',
      ),
    );
  }
  const knownList = known.length > 0 ? known.join(', ') : 'none are configured';
  return list.value.map((name, i) => {
    if (name === null || (typeof name === 'string' && name.trim() === '')) return undefined;
    if (typeof name !== 'string') {
      findings.push(
        error(
          'argument_type',
          `agent ${i + 1} is ${describeValue(name)}, not a name.`,
          'Send agent names as text.',
        ),
      );
      return undefined;
    }
    const trimmed = name.trim();
    if (!known.includes(trimmed)) {
      findings.push(
        error(
          'unknown_agent',
          `there is no agent named "${trimmed}" (known agents: ${knownList}).`,
          'Use one of the known agents, or an empty text for the default agent.',
          i < count ? i : undefined,
        ),
      );
      return undefined;
    }
    return trimmed;
  });
}

function sorted(findings: BatchFinding[]): BatchFinding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => (a.f.leaf ?? -1) - (b.f.leaf ?? -1) || a.i - b.i)
    .map((x) => x.f);
}
