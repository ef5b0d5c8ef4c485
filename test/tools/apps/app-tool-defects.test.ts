import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../src/core/logger.js';
import { AppLoadError } from '../../../src/tools/apps/app-manifest.js';
import { loadApp } from '../../../src/tools/apps/load-app.js';
import { createToolRegistry } from '../../../src/tools/registry/tool-registry.js';
import { toolContext } from '../../support/mcp-tool-context.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'toolseam-app-defects-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Writes an app named `name` whose entry module is `entry`, and returns its folder. */
async function app(name: string, entry: string): Promise<string> {
  const folder = join(scratch, name);
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, 'toolseam-app.json'),
    JSON.stringify({ name, description: 'An app with one bad tool.', entry: 'index.mjs' }),
  );
  await writeFile(join(folder, 'index.mjs'), entry);
  return folder;
}

const mixedTools = `({ toolkit: { defineTool, field } }) => {
  const hello = defineTool({ name: 'hello', description: 'Greets.', handler: () => 'hi' });
  return [
    hello,
    defineTool({ name: 'pick', description: 'Picks.', fields: { n: field.integer({ min: 5, max: 1 }) }, handler: () => 'x' }),
    defineTool({ name: 'two words', description: 'Badly named.', handler: () => 'x' }),
    defineTool({ name: 'hello', description: 'Greets again.', handler: () => 'again' }),
    defineTool({ name: 'count', description: 'Counts.', fields: { n: field.integer() }, handler: ({ n }) => String(n + 1) }),
  ];
}`;

describe('an app with one bad tool among good ones', () => {
  it('serves the good tools and records each bad one, naming the app, the tool and the fix', async () => {
    const folder = await app('mixed', `export default (context) => ({ tools: (${mixedTools})(context) });\n`);
    const logger = memoryLogger();
    const provider = await loadApp(folder, { logger });
    expect(provider.loadError).toBeUndefined();
    expect(logger.records.map((r) => [r.level, r.fields?.tool])).toEqual([
      ['warn', 'pick'],
      ['warn', 'two words'],
      ['warn', 'hello'],
    ]);
    expect(logger.records[0]?.message).toBe(
      'app "mixed" left out its tool pick, whose definition cannot work (pick.n: min is above max); fix it in the entry module.',
    );
    expect((await provider.listTools()).map((t) => t.name)).toEqual(['hello', 'count']);
    expect(await provider.invoke('count', { n: 2 }, toolContext())).toMatchObject({ content: '3' });
    expect(await provider.invoke('hello', {}, toolContext())).toMatchObject({ content: 'hi' });

    const registry = createToolRegistry();
    registry.register(provider);
    const served = await registry.serve();
    expect(served.tools.map((t) => t.name)).toEqual(['hello', 'count']);
    const failure = served.failures.find((f) => f.provider === 'mixed');
    expect(failure).toMatchObject({ app: 'mixed', kind: 'listing' });
    const message = failure?.message ?? '';
    expect(message).toContain('app "mixed"');
    expect(message).toContain('pick.n: min is above max');
    expect(message).toContain('a tool name is non-empty and has no spaces');
    expect(message).toContain('hello: is defined twice (the first one is served)');
    expect(message).toContain('fix in its entry module');
    await registry.close();
  });

  it('does the same for a provider the app builds itself with the toolkit', async () => {
    const folder = await app(
      'built',
      `export default (context) => context.toolkit.inProcessProvider({ name: 'inner', tools: (${mixedTools})(context) });\n`,
    );
    const provider = await loadApp(folder);
    expect((await provider.listTools()).map((t) => t.name)).toEqual(['hello', 'count']);
    const registry = createToolRegistry();
    registry.register(provider);
    const served = await registry.serve();
    expect(served.failures.find((f) => f.provider === 'built')?.message).toContain(
      'pick.n: min is above max',
    );
    await registry.close();
  });

  it('serves a tool listed twice once and records the repeat', async () => {
    const folder = await app(
      'twice',
      `export default ({ toolkit: { defineTool } }) => {
        const t = defineTool({ name: 'same', description: 'Same.', handler: () => 'x' });
        return { tools: [t, t] };
      };\n`,
    );
    const provider = await loadApp(folder);
    expect((await provider.listTools()).map((t) => t.name)).toEqual(['same']);
    expect(provider.loadProblems()).toEqual([
      'app "twice" left out a tool defined in a way that cannot work (its other tools are served); fix in its entry module: same: is defined twice (the first one is served).',
    ]);
  });

  it('still fails the app as a whole when none of its tools can work', async () => {
    const folder = await app(
      'all-bad',
      `export default ({ toolkit: { defineTool, field } }) => ({ tools: [defineTool({
        name: 'pick', description: 'Picks.', fields: { n: field.integer({ min: 5, max: 1 }) }, handler: () => 'x' })] });\n`,
    );
    const error = await (await loadApp(folder)).listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppLoadError);
    expect((error as Error).message).toContain('pick.n: min is above max');
  });

  it('names every bad tool when an app has several and no good one', async () => {
    const folder = await app(
      'none-good',
      `export default ({ toolkit: { defineTool } }) => ({ tools: [
        defineTool({ name: 'a', description: '', handler: () => 'x' }),
        defineTool({ name: 'b', description: 'B.', risk: 'safe', asks: true, handler: () => 'x' }),
      ] });\n`,
    );
    const error = await (await loadApp(folder)).listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppLoadError);
    expect((error as Error).message).toBe(
      'app "none-good" left out 2 tools defined in a way that cannot work; fix in its entry module: a: a tool describes itself (the description is empty); b: a safe tool never asks before it runs.',
    );
  });
});
