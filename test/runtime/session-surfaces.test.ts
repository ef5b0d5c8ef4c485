import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_KEPT_SURFACES, SessionSurfaces } from '../../src/runtime/session-surfaces.js';
import { openSessionStore } from '../../src/store/index.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { demoProvider } from '../support/demo-tools.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('session surfaces', () => {
  it('keeps only the most recently used ones, and builds a let-go one again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-surfaces-'));
    dirs.push(dir);
    const store = openSessionStore({ path: join(dir, 'toolseam.db') });
    const registry = createToolRegistry();
    registry.register(demoProvider());
    const surfaces = new SessionSurfaces({ registry, store });
    const sessions = await Promise.all(
      Array.from({ length: MAX_KEPT_SURFACES + 8 }, (_, i) => store.createSession({ id: `s${i}` })),
    );
    const first = await surfaces.forSession(sessions[0] as never, undefined, () => {});
    const built = [first];
    for (const session of sessions.slice(1)) {
      // the first session keeps being used, so it is never the one let go
      expect(await surfaces.forSession(sessions[0] as never, undefined, () => {})).toBe(first);
      built.push(await surfaces.forSession(session, undefined, () => {}));
    }
    expect(surfaces.size).toBe(MAX_KEPT_SURFACES);
    const second = sessions[1] as never;
    const rebuilt = await surfaces.forSession(second, undefined, () => {});
    expect(rebuilt).not.toBe(built[1]);
    const last = sessions[sessions.length - 1] as never;
    expect(await surfaces.forSession(last, undefined, () => {})).toBe(built[built.length - 1]);
    expect(rebuilt.offered.map((t) => t.name)).toEqual(first.offered.map((t) => t.name));
    expect(surfaces.size).toBe(MAX_KEPT_SURFACES);
    await store.close();
  });
});
