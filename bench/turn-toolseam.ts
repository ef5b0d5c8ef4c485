import { join } from 'node:path';
import { createRuntime, defineTool, field, inProcessProvider, type Runtime } from '../src/index.js';
import {
  type BenchToolSpec,
  benchToolSpecs,
  PARAMETER_TEXT,
  runBenchTool,
  STATUSES,
  type TurnSide,
} from './turn-tools.js';

/** The benchmark's tool defined for toolseam's in-process provider, with the same parameters. */
function toolseamTool(spec: BenchToolSpec) {
  return defineTool({
    name: spec.name,
    description: spec.description,
    risk: 'safe',
    fields: {
      id: field.string({ description: PARAMETER_TEXT.id, maxLength: 64 }),
      owner: field.string({ description: PARAMETER_TEXT.owner, optional: true }),
      limit: field.integer({ description: PARAMETER_TEXT.limit, min: 1, max: 100, optional: true }),
      status: field.string({ enum: STATUSES, optional: true }),
      notify: field.boolean({ description: PARAMETER_TEXT.notify, optional: true }),
    },
    handler: (args) => runBenchTool(spec.name, args),
  });
}

/**
 * toolseam as a host builds it with the public API: `createRuntime` on the OpenAI-compatible provider,
 * the `n` tools in-process, every call approved without asking, its sessions in `store` (a SQLite file,
 * or `:memory:`); the built-in tools and subagents as by default.
 */
export function toolseamRuntime(baseURL: string, n: number, store: string): Promise<Runtime> {
  return createRuntime({
    model: { provider: 'openai-compatible', model: 'bench', baseURL, apiKey: 'bench' },
    tools: [inProcessProvider({ name: 'bench', tools: benchToolSpecs(n).map(toolseamTool) })],
    store,
    approvals: { policy: 'auto' },
  });
}

/** `toolseamRuntime` over `n` tools with its SQLite file in `dir`, as a side of the comparison. */
export async function toolseamSide(baseURL: string, n: number, dir: string): Promise<TurnSide> {
  return runtimeSide(await toolseamRuntime(baseURL, n, join(dir, `toolseam-${n}.db`)));
}

/** A runtime taking the comparison's turns: a new session for each, or the long conversation's by id. */
export function runtimeSide(runtime: Runtime): TurnSide {
  const long = new Map<string, string>();
  return {
    async turn(text, conversation) {
      // A host serving a chat looks its session up by id for each message that comes in.
      const session = await runtime.session(conversation === undefined ? undefined : long.get(conversation));
      if (conversation !== undefined) long.set(conversation, session.id);
      let ran = false;
      for await (const event of await session.send(text)) {
        if (event.type === 'tool-call-end' && !event.isError) ran = true;
        if (event.type === 'turn-end' && event.status !== 'done')
          throw new Error(`A toolseam turn ended ${event.status}: ${event.message}`);
      }
      return ran;
    },
    close: () => runtime.close(),
  };
}
