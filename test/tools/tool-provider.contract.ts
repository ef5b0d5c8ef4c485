import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/json.js';
import type { ToolDefinition, ToolProvider, ToolResult } from '../../src/core/tool.js';
import { createToolRegistry, type ToolRegistry } from '../../src/tools/registry/tool-registry.js';
import { formatMs } from '../../src/tools/registry/with-deadline.js';
import {
  FORBIDDEN_TARGET,
  failedOnPurpose,
  guardedRan,
  HUGE_CHARS,
  notText,
  offLimits,
  thrownOnPurpose,
} from '../support/contract-tools.mjs';
import { toolContext } from '../support/mcp-tool-context.js';

/** What a kind of provider does where kinds differ, declared so that a difference is a tested case, never a skip. */
export interface ProviderCapabilities {
  /**
   * Who checks an argument's type against the declared schema: the provider, in `preflight` (field specs, an
   * MCP server's schema, an app's raw JSON schema), or only the `tool` itself (whose invoke reads what it is sent).
   */
  readonly argumentTypes: 'preflight' | 'tool';
  /**
   * When a tool's own refusal is known: `preflight`, before anyone is asked to approve the call; `call`,
   * only in the answer to the call (an MCP server cannot be asked what it would refuse).
   */
  readonly ownRefusal: 'preflight' | 'call';
  /**
   * What ends a call that never answers: the registry's `deadline` for tools that declare no limit, the
   * provider's `own` timeouts (an MCP server's call timeout), which it declares to the registry, or `none`:
   * the provider declares its tools must not be cut (the runtime's own, whose work may wait for a person),
   * and only the turn's stop ends a call.
   */
  readonly deadline: 'registry' | 'own' | 'none';
}

/**
 * Every kind of tool provider, each with what it can do. A new kind is added here and gets one
 * `*.contract.test.ts` beside its own tests that runs {@link describeToolProviderContract} with it.
 */
export const TOOL_PROVIDER_KINDS = {
  'built-in': { argumentTypes: 'preflight', ownRefusal: 'preflight', deadline: 'registry' },
  app: { argumentTypes: 'preflight', ownRefusal: 'preflight', deadline: 'registry' },
  'app-raw': { argumentTypes: 'preflight', ownRefusal: 'preflight', deadline: 'registry' },
  'mcp-stdio': { argumentTypes: 'preflight', ownRefusal: 'call', deadline: 'own' },
  'mcp-http': { argumentTypes: 'preflight', ownRefusal: 'call', deadline: 'own' },
  'mcp-in-process': { argumentTypes: 'preflight', ownRefusal: 'call', deadline: 'own' },
  runtime: { argumentTypes: 'tool', ownRefusal: 'preflight', deadline: 'none' },
} as const satisfies Record<string, ProviderCapabilities>;

/** A kind of tool provider the contract covers. */
export type ToolProviderKind = keyof typeof TOOL_PROVIDER_KINDS;

/** The tools of `test/support/contract-tools.mjs`, which every provider under contract serves. */
export type ContractTool = 'echo' | 'fail' | 'throws' | 'guarded' | 'hang' | 'huge';

const CONTRACT_TOOLS: readonly ContractTool[] = ['echo', 'fail', 'throws', 'guarded', 'hang', 'huge'];

/** A provider serving the contract's tools, and what else its test started for it. */
export interface ContractSubject {
  readonly provider: ToolProvider;
  /** The real name the provider serves a contract tool under (`mcp/contract/echo` for an MCP server). */
  nameOf(tool: ContractTool): string;
  /** Stops what the subject started beside its provider (an HTTP server); the registry closes the provider. */
  close?(): Promise<void>;
}

/** What a factory is asked for. */
export interface ContractOptions {
  /** A call's own time limit, for a kind whose provider ends its calls itself (`deadline: 'own'`). */
  readonly callMs: number;
}

/** Makes a fresh provider of one kind serving the contract's tools. */
export type ContractFactory = (options: ContractOptions) => Promise<ContractSubject>;

/** The call limit of the subject made for the deadline case, which is only asked to run `hang`. */
const DEADLINE_MS = 2000;
/** A call's limit everywhere else: never reached by a tool that answers, however busy the machine. */
const CALL_MS = 60_000;
/** The longest result the contract's registry takes; `huge` answers more than this. */
const RESULT_LIMIT = 20_000;

interface Opened {
  readonly subject: ContractSubject;
  readonly registry: ToolRegistry;
  readonly tools: readonly ToolDefinition[];
}

async function open(kind: ToolProviderKind, factory: ContractFactory, callMs: number): Promise<Opened> {
  const subject = await factory({ callMs });
  const own = TOOL_PROVIDER_KINDS[kind].deadline === 'own';
  const registry = createToolRegistry({
    maxResultChars: RESULT_LIMIT,
    ...(own ? {} : { callTimeouts: () => callMs }),
  });
  registry.register(subject.provider);
  const served = await registry.serve();
  expect(served.failures).toEqual([]);
  return { subject, registry, tools: served.tools };
}

async function shut(opened: Opened | undefined): Promise<void> {
  await opened?.registry.close();
  await opened?.subject.close?.();
}

/**
 * Runs the same cases through a real ToolRegistry against a provider of `kind`: listing, a call, an error
 * result, preflight, the deadline and a result too large. Where kinds differ, the kind's declared
 * capability picks the case that holds for it.
 */
export function describeToolProviderContract(kind: ToolProviderKind, factory: ContractFactory): void {
  const can = TOOL_PROVIDER_KINDS[kind];

  describe(`tool provider contract: ${kind}`, () => {
    let opened: Opened;
    const name = (tool: ContractTool): string => opened.subject.nameOf(tool);
    const call = (tool: ContractTool, args: JsonObject = {}): Promise<ToolResult> =>
      opened.registry.invoke(name(tool), args, toolContext());
    const preflight = (tool: ContractTool, args: JsonObject) =>
      opened.registry.preflight(name(tool), args, toolContext());

    beforeAll(async () => {
      opened = await open(kind, factory, CALL_MS);
    });
    afterAll(async () => {
      await shut(opened);
    });

    it('lists every tool, tagged with its provider, app and group', () => {
      const { provider } = opened.subject;
      const listed = opened.tools.map((t) => t.name).sort();
      expect(listed).toEqual(CONTRACT_TOOLS.map(name).sort());
      for (const tool of opened.tools) {
        expect(tool).toMatchObject({ provider: provider.name, app: provider.app });
        expect(tool.group).toMatchObject({ key: expect.any(String), own: provider.own });
        expect(['safe', 'caution', 'destructive']).toContain(tool.risk);
      }
      expect(opened.registry.providerOf(name('echo'))?.provider).toBe(provider);
    });

    it('runs a call and hands back what the tool answered', async () => {
      expect(await call('echo', { text: 'hello there' })).toMatchObject({
        content: 'hello there',
        isError: false,
      });
    });

    it('hands back an error result as an error the tool ran into', async () => {
      const result = await call('fail', { why: 'the disk is full' });
      expect(result.isError).toBe(true);
      expect(result.content).toContain(failedOnPurpose('the disk is full'));
      expect(result.notRun).toBeUndefined();
    });

    it('answers a tool that throws with an error result saying what it threw', async () => {
      const result = await call('throws', { why: 'no network' });
      expect(result.isError).toBe(true);
      expect(result.content).toContain(thrownOnPurpose('no network'));
    });

    const mistyped = { text: { nested: true } };
    if (can.argumentTypes === 'preflight') {
      it('refuses an argument of the wrong type before anyone is asked, and again when called', async () => {
        for (const refused of [await preflight('echo', mistyped), await call('echo', mistyped)]) {
          expect(refused?.isError).toBe(true);
          expect(refused?.notRun).toBeDefined();
          const problems = (refused?.data as { problems?: { path: string }[] } | undefined)?.problems;
          expect(problems?.map((p) => p.path)).toContain('text');
        }
      });
    } else {
      it('leaves an argument of the wrong type to the tool, which is sent it as it came', async () => {
        expect(await preflight('echo', mistyped)).toBeUndefined();
        const answer = await call('echo', mistyped);
        expect(answer).toMatchObject({ isError: true, content: notText(mistyped.text) });
        expect(answer.notRun).toBeUndefined();
      });
    }

    it('runs a call its tool takes, with nothing refused before', async () => {
      expect(await preflight('guarded', { target: 'garden' })).toBeUndefined();
      expect((await call('guarded', { target: 'garden' })).content).toBe(guardedRan('garden'));
    });

    if (can.ownRefusal === 'preflight') {
      it("tells the tool's own refusal before anyone is asked, and never runs the call", async () => {
        const refusal = offLimits(FORBIDDEN_TARGET) as string;
        const early = await preflight('guarded', { target: FORBIDDEN_TARGET });
        expect(early).toMatchObject({ isError: true, notRun: 'refused_by_tool', content: refusal });
        const late = await call('guarded', { target: FORBIDDEN_TARGET });
        expect(late).toMatchObject({ isError: true, notRun: 'refused_by_tool', content: refusal });
      });
    } else {
      it("cannot tell the tool's own refusal before the call, and answers it from the call", async () => {
        expect(await preflight('guarded', { target: FORBIDDEN_TARGET })).toBeUndefined();
        const answer = await call('guarded', { target: FORBIDDEN_TARGET });
        expect(answer.isError).toBe(true);
        expect(answer.content).toContain(offLimits(FORBIDDEN_TARGET));
      });
    }

    it('drops a result too large to hold, saying so, and answers the next call', async () => {
      const result = await call('huge');
      expect(result).toMatchObject({
        isError: true,
        data: { code: 'result_too_large', chars: HUGE_CHARS, limitChars: RESULT_LIMIT },
      });
      expect((await call('echo', { text: 'still here' })).content).toBe('still here');
    });

    if (can.deadline === 'none') {
      it("never ends a call at a deadline, however long it takes, and ends it when the turn's stop comes", async () => {
        const timed = await open(kind, factory, DEADLINE_MS);
        try {
          const hang = timed.subject.nameOf('hang');
          expect(timed.subject.provider.timeLimitMs?.(hang, {})).toBeNull();
          const stop = new AbortController();
          const answer = timed.registry.invoke(hang, {}, toolContext(stop.signal));
          // Twice the deadline the registry was given: a call it cut would have been answered by then.
          const past = new Promise<'running'>((done) => setTimeout(() => done('running'), 2 * DEADLINE_MS));
          expect(await Promise.race([answer, past])).toBe('running');
          stop.abort();
          const stopped = await answer;
          expect(stopped.isError).toBe(true);
          expect(stopped.content).toContain('was stopped while it ran');
        } finally {
          await shut(timed);
        }
      });
    } else {
      it('ends a call that never answers at its deadline, naming the limit', async () => {
        const timed = await open(kind, factory, DEADLINE_MS);
        try {
          const hang = timed.subject.nameOf('hang');
          const ownLimit = timed.subject.provider.timeLimitMs?.(hang, {});
          if (can.deadline === 'own') expect(ownLimit).toBeGreaterThanOrEqual(DEADLINE_MS);
          else expect(ownLimit).toBeUndefined();
          const result = await timed.registry.invoke(hang, {}, toolContext());
          expect(result.isError).toBe(true);
          expect(result.content).toContain(`within ${formatMs(DEADLINE_MS)}`);
          if (can.deadline === 'registry') expect(result.data).toMatchObject({ code: 'tool_timeout' });
        } finally {
          await shut(timed);
        }
      });
    }
  });
}
