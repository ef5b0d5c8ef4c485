import type { JsonObject } from '../../core/json.js';
import type { ToolContext, ToolDefinition, ToolResult } from '../../core/tool.js';
import { DEFAULT_MCP_TIMEOUTS, type McpTimeouts, PROGRESS_LIMIT } from './mcp-config.js';
import type { McpServerTarget } from './mcp-server-target.js';
import type { McpProviderOptions, McpToolProvider } from './mcp-tool-provider.js';
import type { SdkMcpProvider } from './sdk-mcp-provider.js';

export type { McpProviderOptions, McpToolProvider } from './mcp-tool-provider.js';

/**
 * Makes an MCP server a tool provider named `mcp/<server>`: tools are `mcp/<server>/<tool>`, the server is
 * started on first use and restarted (with back-off) on the use after a crash, and every failure comes
 * back as a thrown McpServerError from listTools or a refusal result from invoke — never more. The MCP
 * SDK is imported on that first use too, so a program that configures no server never loads it.
 */
export function createMcpProvider(
  target: McpServerTarget,
  options: McpProviderOptions = {},
): McpToolProvider {
  return new McpProvider(target, options);
}

/** The provider a host holds: answers what it can without the SDK, and hands the rest to an `SdkMcpProvider`. */
class McpProvider implements McpToolProvider {
  readonly name: string;
  readonly app: string;
  readonly own = false;
  readonly server: string;
  private readonly timeouts: McpTimeouts;
  private readonly listeners = new Set<() => void>();
  private loading: Promise<SdkMcpProvider> | undefined;
  private loaded: SdkMcpProvider | undefined;
  private closed = false;

  constructor(
    private readonly target: McpServerTarget,
    private readonly options: McpProviderOptions,
  ) {
    this.server = target.name;
    this.name = `mcp/${target.name}`;
    this.app = options.app ?? target.name;
    const own = 'timeouts' in target ? target.timeouts : undefined;
    this.timeouts = { ...DEFAULT_MCP_TIMEOUTS, ...options.timeouts, ...own };
  }

  get connected(): boolean {
    return this.loaded?.connected ?? false;
  }

  async listTools(signal?: AbortSignal): Promise<readonly ToolDefinition[]> {
    return (await this.onSdk()).listTools(signal);
  }

  async whenListed(): Promise<void> {
    await (await this.onSdk()).whenListed();
  }

  loadProblems(): readonly string[] {
    return this.loaded?.loadProblems() ?? [];
  }

  async invoke(name: string, args: JsonObject, ctx: ToolContext): Promise<ToolResult> {
    return (await this.onSdk()).invoke(name, args, ctx);
  }

  /**
   * The longest a call may take by this server's timeouts: starting it, listing its tools, and a call that
   * keeps reporting progress (the SDK enforces each; the runtime's deadline only backs them up).
   */
  timeLimitMs(): number {
    return this.timeouts.startMs + this.timeouts.listMs + PROGRESS_LIMIT * this.timeouts.callMs;
  }

  /** Refuses what the cached listing shows invoke would refuse; before any listing there is none to read. */
  async preflight(name: string, args: JsonObject): Promise<ToolResult | undefined> {
    return this.loaded?.preflight(name, args);
  }

  onToolsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    // one never used has started nothing; one still importing the SDK closes what it makes (see load)
    if (this.loaded) await this.loaded.close();
    else await this.loading?.catch(() => undefined);
  }

  /** The provider on the SDK, importing it on the first use; one used after `close` is closed too. */
  private onSdk(): Promise<SdkMcpProvider> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  private async load(): Promise<SdkMcpProvider> {
    const { SdkMcpProvider } = await import('./sdk-mcp-provider.js');
    const provider = new SdkMcpProvider(this.target, this.options, this.timeouts, this.listeners);
    this.loaded = provider;
    if (this.closed) await provider.close();
    return provider;
  }
}
