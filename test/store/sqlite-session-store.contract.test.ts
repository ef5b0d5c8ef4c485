import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionStore } from '../../src/core/session-store.js';
import { openSessionStore } from '../../src/store/index.js';
import { sessionStoreContract } from './session-store.contract.js';

// Each case gets its own folder and file; a reopened store is another connection to that file.
const opened: SessionStore[] = [];
const folders: string[] = [];

function tracked(store: SessionStore): SessionStore {
  opened.push(store);
  return store;
}

sessionStoreContract('SQLite (a real file)', {
  open: async (options = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-contract-'));
    folders.push(dir);
    return tracked(openSessionStore({ path: join(dir, 'toolseam.db'), ...options }));
  },
  reopen: async (store) => tracked(openSessionStore({ path: store.path })),
  cleanup: async () => {
    // Closing twice is harmless: a case may have closed its store itself.
    for (const store of opened.splice(0)) await store.close();
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  },
});
