import type { ToolResult } from '../../core/tool.js';
import { defineTool, type InProcessTool, type ToolSpec } from '../fields/define-tool.js';
import type { ArgsOf, Fields } from '../fields/field.js';
import {
  type InProcessProvider,
  type InProcessProviderOptions,
  inProcessProvider,
} from '../fields/in-process-provider.js';
import { ToolDefinitionError } from '../fields/tool-definition-error.js';

/** Where a stand-in tool or an app-built provider keeps the definition errors of the tools it left out. */
const LEFT_OUT = Symbol('toolseam.leftOutTools');

/** An in-process tool that may stand in for one whose definition could not work. */
type MaybeLeftOut = InProcessTool & { readonly [LEFT_OUT]?: ToolDefinitionError };

/** Like defineTool, but a definition that cannot work gives a stand-in the app loader leaves out, so the app's other tools still load. */
export function defineAppTool<const F extends Fields = Record<never, never>>(
  spec: ToolSpec<F>,
): InProcessTool<ArgsOf<F>> {
  try {
    return defineTool(spec);
  } catch (error) {
    if (!(error instanceof ToolDefinitionError)) throw error;
    return standIn(error) as unknown as InProcessTool<ArgsOf<F>>;
  }
}

/** Like inProcessProvider, but stand-ins and repeated names are left out (and remembered) instead of throwing. */
export function appInProcessProvider(options: InProcessProviderOptions): InProcessProvider {
  const { usable, leftOut } = sortDefinedTools(options.tools);
  return Object.assign(inProcessProvider({ ...options, tools: usable }), { [LEFT_OUT]: leftOut });
}

/** The tools that can be served, in order, and the definition errors of those left out (stand-ins, later repeats of a name). */
export function sortDefinedTools(tools: readonly unknown[]): {
  usable: InProcessTool[];
  leftOut: ToolDefinitionError[];
} {
  const usable: InProcessTool[] = [];
  const leftOut: ToolDefinitionError[] = [];
  const names = new Set<string>();
  for (const tool of tools as readonly MaybeLeftOut[]) {
    const broken = tool[LEFT_OUT];
    if (broken !== undefined) leftOut.push(broken);
    else if (names.has(tool.name)) {
      leftOut.push(new ToolDefinitionError(tool.name, '', 'is defined twice (the first one is served)'));
    } else {
      names.add(tool.name);
      usable.push(tool);
    }
  }
  return { usable, leftOut };
}

/** The definition errors a provider built with {@link appInProcessProvider} remembered; none for any other value. */
export function leftOutOf(provider: unknown): readonly ToolDefinitionError[] {
  const found = (provider as { [LEFT_OUT]?: unknown } | null | undefined)?.[LEFT_OUT];
  return Array.isArray(found) ? (found as ToolDefinitionError[]) : [];
}

/** One load-failure sentence for an app's left-out tools: the app, each tool with its defect, and where to fix them. */
export function leftOutMessage(
  app: string,
  leftOut: readonly ToolDefinitionError[],
  served: boolean,
): string {
  const count = leftOut.length === 1 ? 'a tool' : `${leftOut.length} tools`;
  const rest = served ? ' (its other tools are served)' : '';
  return `app "${app}" left out ${count} defined in a way that cannot work${rest}; fix in its entry module: ${leftOut.map((e) => e.message).join('; ')}.`;
}

/** A tool that never runs, standing in for one whose definition could not work. */
function standIn(error: ToolDefinitionError): MaybeLeftOut {
  const result: ToolResult = {
    content: `${error.tool} was not run: its definition cannot work (${error.message}).`,
    isError: true,
    notRun: 'refused_by_tool',
    data: { code: error.code },
  };
  const parameters = { type: 'object', properties: {} };
  return {
    [LEFT_OUT]: error,
    name: error.tool,
    description: '',
    risk: 'caution',
    asks: true,
    fields: {},
    parameters,
    definition: { name: error.tool, description: '', parameters, risk: 'caution', requiresApproval: true },
    read: () => ({ ok: false, problems: [] }),
    parse: () => {
      throw error;
    },
    check: async () => result,
    run: async () => result,
  };
}
