import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import {
  openSessionStore,
  type SessionStoreOptions,
  type SqliteSessionStore,
} from '../../src/store/index.js';

/** A fresh database path in its own temp folder, removed when the test ends. */
export function tempDbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-store-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'toolseam.db');
}

/** Opens a store on `path` (a fresh temp file by default), closed when the test ends. */
export function openTestStore(
  path = tempDbPath(),
  options: Omit<SessionStoreOptions, 'path'> = {},
): SqliteSessionStore {
  const store = openSessionStore({ ...options, path });
  onTestFinished(() => store.close());
  return store;
}

export { commandScopeOf, digestOf, folderScopeOf, newCall, turnWithCalls } from './record-fixtures.js';
