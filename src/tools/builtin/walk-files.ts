import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolResult } from '../../core/tool.js';
import { credentialEntryPlace } from './credential-paths.js';

/** Folders a search passes over unless the search names them. */
export const SKIPPED_FOLDERS: readonly string[] = ['.git', 'node_modules'];

/** The most folder entries one search looks at. */
export const MAX_WALKED_ENTRIES = 200_000;

/** One entry met while walking: its path relative to the start (with `/`), and what it is. */
export interface WalkedEntry {
  readonly rel: string;
  readonly full: string;
  readonly entry: Dirent;
}

/** How a walk went: whether it stopped early because it met too many entries. */
export interface WalkBudget {
  visited: number;
  cut: boolean;
  /** The most entries this walk looks at (MAX_WALKED_ENTRIES unless the host set another). */
  readonly limit: number;
}

/** Where a walk starts: a folder, really resolved, and the workspace folders it was located in. */
export interface WalkStart {
  readonly real: string;
  readonly roots: readonly string[];
}

/**
 * Walks a folder depth-first in name order, yielding every entry below it. Links are yielded but never
 * followed (so a walk cannot leave the folder or loop); `skip` folders, credential folders (`.ssh`, a folder
 * named `.env`) and unreadable folders are not entered; the start itself is the caller's to have checked.
 * Stops after the budget's limit of entries, marking the budget as cut.
 */
export function walkFiles(
  start: WalkStart,
  budget: WalkBudget,
  skip: ReadonlySet<string> = new Set(SKIPPED_FOLDERS),
  signal?: AbortSignal,
): AsyncGenerator<WalkedEntry> {
  return walkBelow(start, budget, skip, signal, '');
}

async function* walkBelow(
  start: WalkStart,
  budget: WalkBudget,
  skip: ReadonlySet<string>,
  signal: AbortSignal | undefined,
  rel: string,
): AsyncGenerator<WalkedEntry> {
  const entries = await readdir(join(start.real, rel), { withFileTypes: true }).catch(() => [] as Dirent[]);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (signal?.aborted || budget.visited >= budget.limit) {
      budget.cut = budget.cut || budget.visited >= budget.limit;
      return;
    }
    budget.visited++;
    const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
    const full = join(start.real, path);
    yield { rel: path, full, entry };
    // A credential folder's entries stay unread, as list_dir refuses to list it: its name alone is shown.
    const enter =
      entry.isDirectory() && !skip.has(entry.name) && credentialEntryPlace(full, start.roots) === undefined;
    if (enter) yield* walkBelow(start, budget, skip, signal, path);
  }
}

/** The skipped folders a search does not name (a pattern mentioning `node_modules` searches it). */
export function skippedFor(pattern: string): Set<string> {
  return new Set(SKIPPED_FOLDERS.filter((name) => !pattern.includes(name)));
}

/** What a search stopped with its turn answers: what it found so far is partial, so none of it is shown. */
export function stoppedSearch(tool: string): ToolResult {
  return {
    content: `Error: ${tool} was stopped because the turn was stopped, before it had searched everything; no result is shown.`,
    isError: true,
    data: { code: 'stopped' },
  };
}
