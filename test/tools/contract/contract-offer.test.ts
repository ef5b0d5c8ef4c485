import { afterEach, describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../src/core/tool.js';
import { offerTools, wireName } from '../../../src/seam/index.js';
import { type AppToolProvider, loadApp } from '../../../src/tools/apps/load-app.js';
import { strictProblems } from '../../seam/strict-profile.js';
import { contractFixture } from '../../support/contract-api.js';
import { collect, type RuntimeHarness, startHarness, turnEnd } from '../../support/runtime-harness.js';

const FIXTURES = ['petstore', 'petstore3', 'uspto', 'billing', 'calendar', 'stripe-subset'] as const;

async function fixtureApps(): Promise<AppToolProvider[]> {
  return Promise.all(FIXTURES.map((name) => loadApp(contractFixture(name))));
}

/** Whether an object schema anywhere in `node` is closed with `additionalProperties: false`. */
function closesAnywhere(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  if ((node as Record<string, unknown>).additionalProperties === false) return true;
  return Object.values(node).some(closesAnywhere);
}

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("the fixtures' tools are offered whole on every provider", () => {
  it('every operation becomes a tool, and every offered schema passes the strict reading of the profile', async () => {
    const definitions: ToolDefinition[] = [];
    for (const app of await fixtureApps()) {
      expect(app.loadError).toBeUndefined();
      definitions.push(...(await app.listTools()));
    }
    // petstore 4 + petstore3 19 + uspto 3 + billing 6 + calendar 2 + stripe-subset 4 operations, none left out
    expect(definitions).toHaveLength(38);
    const { offered, excluded } = offerTools(definitions);
    expect(excluded).toEqual([]);
    for (const tool of offered) expect([tool.name, strictProblems(tool.parameters)]).toEqual([tool.name, []]);
    // Seed 003 closes the declared objects; the seam drops the keyword from what the model is offered.
    expect(definitions.every((d) => closesAnywhere(d.parameters))).toBe(true);
    expect(offered.some((t) => closesAnywhere(t.parameters))).toBe(false);
  });

  const families = [
    { family: 'openai' },
    { family: 'openai', mode: 'gemini' },
    { family: 'anthropic' },
    { family: 'bedrock' },
  ] as const;
  for (const setting of families) {
    const label = 'mode' in setting ? setting.mode : setting.family;
    it(`${label}'s stand-in takes a request carrying every contract tool`, async () => {
      const apps = await fixtureApps();
      h = await startHarness({ ...setting, providers: apps, script: [{ text: 'ok' }] });
      const events = await collect(await (await h.runtime.session('s')).send('list the tools'));
      expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'ok' });
      const [request] = h.standIn.requests;
      expect(request?.outcome.kind).toBe('answered');
      const names = new Set(request?.tools.map((t) => t.name));
      const wanted = (await Promise.all(apps.map((a) => a.listTools()))).flat().map((t) => wireName(t.name));
      expect(wanted.filter((name) => !names.has(name))).toEqual([]);
    });
  }
});
