import {
  type BatchFinding,
  error,
  MAX_TITLE_CHARS,
  MIN_DECLARATION_CHARS,
  warning,
} from '../batches/batch-finding.js';
import { DECLARATIONS, LONE_LEAF_DEFAULTS, titleFromTask } from '../batches/leaf-contract.js';
import type { CompiledLeaf, CompileOptions } from './compiled-batch.js';
import { resolvedPath as at, within } from './leaf-paths.js';
import type { LeafDraft } from './read-leaf.js';

/**
 * Applies the contract rules to one read leaf (missing and thin declarations, title length, research
 * writes, writes inside off-limits paths) and builds its contract; undefined when it has no task.
 */
export function contractOf(
  draft: LeafDraft,
  i: number,
  full: boolean,
  options: CompileOptions,
  findings: BatchFinding[],
): CompiledLeaf | undefined {
  const required = full ? (['task', 'title', ...DECLARATIONS] as const) : (['task'] as const);
  const missing = required.filter((key) => !draft[key] && !draft.unreadable.includes(key));
  if (missing.length > 0) {
    findings.push(
      error(
        'leaf_contract_missing',
        `it does not declare its ${listed(missing)}.`,
        full
          ? `Give every leaf of a batch a task, a short title, an objective, an output_format and a boundary (each declaration at least ${MIN_DECLARATION_CHARS} characters).`
          : 'Say what the leaf should do in "task".',
        i,
      ),
    );
  }
  for (const key of DECLARATIONS) {
    const value = draft[key];
    if (value !== undefined && value.length < MIN_DECLARATION_CHARS) {
      findings.push(
        error(
          'leaf_contract_thin',
          `its ${key} "${value}" is under ${MIN_DECLARATION_CHARS} characters, too thin to hold the leaf to.`,
          `Write the ${key} out as a full sentence of at least ${MIN_DECLARATION_CHARS} characters.`,
          i,
        ),
      );
    }
  }
  if (draft.title && draft.title.length > MAX_TITLE_CHARS) {
    findings.push(
      error(
        'leaf_title_long',
        `its title is ${draft.title.length} characters; a title is a name of at most ${MAX_TITLE_CHARS}.`,
        'Shorten the title to a few words and put the detail in the task.',
        i,
      ),
    );
  }
  if (draft.capability === 'research' && draft.writes.length > 0) {
    findings.push(
      error(
        'research_leaf_writes',
        `it is declared research (it only looks things up) but writes ${draft.writes.join(', ')}.`,
        'Declare it "mutating" if it must change those paths, or drop "writes".',
        i,
      ),
    );
  }
  for (const path of draft.writes) {
    const fence = draft.off_limits.find((off) => within(at(off, options), at(path, options)));
    if (fence !== undefined) {
      findings.push(
        error(
          'write_off_limits',
          `it writes ${path}, which lies inside ${fence}, a path it declares off limits.`,
          'Take the path out of "writes" or out of "off_limits": a leaf cannot both change and keep clear of it.',
          i,
        ),
      );
    }
  }
  if (!draft.task) return undefined;
  const capability = draft.capability ?? (draft.writes.length > 0 ? 'mutating' : 'research');
  return {
    index: i,
    title: draft.title ?? titleFromTask(draft.task),
    contract: {
      task: draft.task,
      objective: draft.objective ?? LONE_LEAF_DEFAULTS.objective,
      output_format: draft.output_format ?? LONE_LEAF_DEFAULTS.output_format,
      boundary: draft.boundary ?? LONE_LEAF_DEFAULTS.boundary,
      capability,
      writes: draft.writes,
      off_limits: draft.off_limits,
    },
  };
}

/** Warns when two leaves write the same path, or one writes inside the other's path. */
export function findOverlappingWrites(
  leaves: readonly CompiledLeaf[],
  options: CompileOptions,
  findings: BatchFinding[],
): void {
  const seen: { leaf: CompiledLeaf; path: string; real: string }[] = [];
  for (const leaf of leaves) {
    for (const path of new Set(leaf.contract.writes)) {
      const real = at(path, options);
      const other = seen.find(
        (s) => s.leaf.index !== leaf.index && (within(s.real, real) || within(real, s.real)),
      );
      if (other) {
        findings.push(
          warning(
            'multi_writer',
            `it writes ${path}, and leaf ${other.leaf.index + 1} ("${other.leaf.title}") writes ${other.path}: so they run one after the other, never at once, and the later one may still change what the earlier one wrote.`,
            'Give each path to one leaf, or have one leaf write and the other only read.',
            leaf.index,
          ),
        );
      }
      seen.push({ leaf, path, real });
    }
  }
}

function listed(keys: readonly string[]): string {
  if (keys.length <= 1) return keys.join('');
  return `${keys.slice(0, -1).join(', ')} and ${keys.at(-1)}`;
}
