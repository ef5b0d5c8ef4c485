import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject } from '../../../src/core/json.js';
import type { ToolDefinition, ToolResult } from '../../../src/core/tool.js';
import type { RuntimeTool } from '../../../src/runtime/calls/runtime-tool.js';
import { runtimeToolProvider } from '../../../src/runtime/calls/runtime-tool-provider.js';
import { openSessionStore } from '../../../src/store/index.js';
import * as contract from '../../support/contract-tools.mjs';
import { describeToolProviderContract } from '../tool-provider.contract.js';

/*
 * The runtime's own tools (subagent_run) are served per turn by the call path, not by a registry; here
 * their provider serves the contract's tools through one, like every other kind. The meta-tools'
 * provider runs no case: it serves only tool_search and tool_schema, answered from a turn's surface.
 */

const takes = (...names: string[]): ToolDefinition['parameters'] => ({
  type: 'object',
  properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
  required: names,
  additionalProperties: false,
});

function tool(
  name: string,
  description: string,
  fields: string[],
  run: (args: JsonObject) => string | ToolResult | Promise<never>,
  preflight?: RuntimeTool['preflight'],
): RuntimeTool {
  return {
    definition: { name, description, risk: 'safe', requiresApproval: false, parameters: takes(...fields) },
    run: async (args) => {
      const answer = await run(args);
      return typeof answer === 'string' ? { content: answer, isError: false } : answer;
    },
    ...(preflight ? { preflight } : {}),
  };
}

/** The contract's tools written as runtime tools, which read their own arguments. */
const TOOLS: readonly RuntimeTool[] = [
  tool('echo', 'Answers with the text it is given.', ['text'], ({ text }) =>
    typeof text === 'string' ? text : { content: contract.notText(text), isError: true },
  ),
  tool('fail', 'Reports a tool error, always.', ['why'], ({ why }) => ({
    content: contract.failedOnPurpose(String(why)),
    isError: true,
  })),
  tool('throws', 'Throws, always.', ['why'], ({ why }) => {
    throw new Error(contract.thrownOnPurpose(String(why)));
  }),
  tool(
    'guarded',
    'Runs on a target, refusing the one that is off limits.',
    ['target'],
    // Refused again when run: a call may come without its preflight.
    ({ target }) => {
      const refused = contract.offLimits(String(target));
      return refused === undefined
        ? contract.guardedRan(String(target))
        : { content: refused, isError: true, notRun: 'refused_by_tool' };
    },
    ({ target }) => {
      const refused = contract.offLimits(String(target));
      return refused === undefined ? undefined : { content: refused, isError: true };
    },
  ),
  tool('hang', 'Never answers.', [], () => new Promise(() => {})),
  tool('huge', 'Answers with more text than a tool result may hold.', [], () =>
    'x'.repeat(contract.HUGE_CHARS),
  ),
];

describeToolProviderContract('runtime', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'toolseam-runtime-contract-'));
  const store = openSessionStore({ path: join(folder, 'sessions.db') });
  const provider = runtimeToolProvider(new Map(TOOLS.map((t) => [t.definition.name, t])), {
    turnId: 'turn-1',
    emit: () => {},
    store,
    offeredNames: [],
    mode: 'agent',
    inLeaf: false,
  });
  return {
    provider,
    nameOf: (name) => name,
    async close() {
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
});
