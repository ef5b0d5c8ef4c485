import type { JsonObject } from '../../core/json.js';
import type { ToolContext, ToolDefinition, ToolGroup, ToolProvider, ToolResult } from '../../core/tool.js';
import type { InProcessTool } from './define-tool.js';
import { ToolDefinitionError } from './tool-definition-error.js';

/** How to build an in-process provider. */
export interface InProcessProviderOptions {
  /** Provider name, unique in a registry (e.g. `builtin`, an app's name). */
  readonly name: string;
  /** The app it belongs to; defaults to the provider name. */
  readonly app?: string;
  /** True when it ships with the platform; defaults to false. */
  readonly own?: boolean;
  /** The catalog group of every tool that does not name its own. */
  readonly group?: ToolGroup;
  readonly tools: readonly InProcessTool[];
}

/** A provider serving defined tools in this process: it lists their offered schemas and runs their calls. */
export interface InProcessProvider extends ToolProvider {
  /** The defined tools, by name (for the boolean census, the portability rail, a host's own UI). */
  readonly tools: ReadonlyMap<string, InProcessTool>;
  preflight(name: string, args: JsonObject, ctx: ToolContext): Promise<ToolResult | undefined>;
  timeLimitMs(name: string, args: JsonObject): number | null | undefined;
}

/** Builds a ToolProvider from defined tools; throws ToolDefinitionError on a repeated tool name. */
export function inProcessProvider(options: InProcessProviderOptions): InProcessProvider {
  const tools = new Map<string, InProcessTool>();
  for (const tool of options.tools) {
    if (tools.has(tool.name)) {
      throw new ToolDefinitionError(tool.name, '', `is defined twice in provider ${options.name}`);
    }
    tools.set(tool.name, tool);
  }
  const group = options.group;
  const definitions: readonly ToolDefinition[] = [...tools.values()].map((tool) =>
    group === undefined || tool.definition.group !== undefined
      ? tool.definition
      : { ...tool.definition, group },
  );
  const app = options.app ?? options.name;
  return {
    name: options.name,
    app,
    own: options.own ?? false,
    tools,
    async listTools() {
      return definitions;
    },
    async invoke(name, args, ctx) {
      const tool = tools.get(name);
      if (tool === undefined) {
        const content = `${name} is not a tool of ${options.name}; it serves ${[...tools.keys()].join(', ') || 'no tools'}`;
        return { content, isError: true, notRun: 'refused_by_tool', data: { code: 'unknown_tool' } };
      }
      return tool.run(args, ctx);
    },
    async preflight(name, args, ctx) {
      return tools.get(name)?.check(args, ctx);
    },
    timeLimitMs(name, args) {
      // a tool made by another copy of toolseam (an app's own install) may not say
      return tools.get(name)?.timeLimitMs?.(args);
    },
  };
}
