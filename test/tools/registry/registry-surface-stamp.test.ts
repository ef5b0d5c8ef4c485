import { afterEach, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { createToolRegistry, type ToolRegistry } from '../../../src/tools/registry/tool-registry.js';
import { gatedServer } from '../../support/mcp-gated-server.js';
import { inProcess } from '../../support/mcp-servers.js';

const registries: ToolRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.close()));
});

describe('the surface stamp of a serve', () => {
  it('is already old when an MCP server announced a change while its tools were being listed', async () => {
    const server = gatedServer();
    const registry = createToolRegistry();
    registries.push(registry);
    registry.register(createMcpProvider(inProcess('gated', server.build)));
    expect((await registry.serve()).tools.map((t) => t.name)).toEqual(['mcp/gated/v1']);

    const second = await server.change();
    const announced = registry.surfaceStamp();
    const serving = registry.serve();
    await expect.poll(() => server.listsAsked()).toBe(2);
    // The tools change again before the server answers the listing this serve asked for.
    const third = await server.change();
    await expect.poll(() => registry.surfaceStamp()).not.toBe(announced);
    second();
    third();
    const served = await serving;

    // Whatever that serve got, a runtime holding its stamp must see that the surface has moved.
    expect(registry.surfaceStamp()).not.toBe(served.stamp);
    expect((await registry.serve()).tools.map((t) => t.name)).toEqual(['mcp/gated/v3']);
  });
});
