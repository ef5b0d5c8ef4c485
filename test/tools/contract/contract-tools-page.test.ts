import { afterEach, describe, expect, it } from 'vitest';
import { loadApp } from '../../../src/tools/apps/load-app.js';
import { expectJson, type Served, startServed } from '../../server/served.js';
import { contractFixture } from '../../support/contract-api.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('the Tools page shows a contract app', () => {
  it("lists each of the app's operations as a tool, in the app's group, switched on", async () => {
    served = await startServed({ providers: [await loadApp(contractFixture('petstore'))] });
    const page = await expectJson<{ tools: Record<string, unknown>[] }>(
      await served.api('/api/tools'),
      200,
      'ToolsPage',
    );
    const rows = page.tools.filter((t) => t.app === 'petstore');
    expect(rows.map((t) => t.name).sort()).toEqual(['addPet', 'deletePet', 'find pet by id', 'findPets']);
    for (const row of rows) expect(row).toMatchObject({ on: true, group: 'petstore', provider: 'petstore' });
    // Declared closed (seed 003), offered open: the page says the seam dropped the keyword.
    const find = rows.find((t) => t.name === 'findPets');
    expect(find).toMatchObject({ status: 'repaired' });
    expect(String(find?.why)).toMatch(/additionalProperties/);
  });
});
