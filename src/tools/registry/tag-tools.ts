import { isPlainObject } from '../../core/json.js';
import type { RiskLevel, ToolDefinition, ToolGroup, ToolProvider, ToolResult } from '../../core/tool.js';

const RISKS: readonly RiskLevel[] = ['safe', 'caution', 'destructive'];

/** Who a provider's tools are tagged with. */
export interface TagOrigin {
  readonly provider: ToolProvider;
  readonly app: string;
  /** What the provider's default group is for. */
  readonly purpose: string;
}

/**
 * Reads a provider's listing defensively and tags each tool with its provider, app and catalog group.
 * A tool keeps a group its provider gave it, but only the platform's own providers have own groups.
 * Entries without a name and repeated names are left out and described in `problems`.
 */
export function tagTools(
  listed: readonly unknown[],
  origin: TagOrigin,
): { tools: ToolDefinition[]; problems: string[] } {
  const { provider, app } = origin;
  const fallback: ToolGroup = { key: app, own: provider.own, purpose: origin.purpose };
  const tools: ToolDefinition[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  listed.forEach((item, index) => {
    if (!isPlainObject(item) || typeof item.name !== 'string' || item.name.trim() === '') {
      problems.push(`${provider.name} listed entry ${index} without a name; it was left out.`);
      return;
    }
    if (seen.has(item.name)) {
      problems.push(`${provider.name} listed ${item.name} more than once; the first is used.`);
      return;
    }
    seen.add(item.name);
    const tool = item as unknown as ToolDefinition;
    const risk = RISKS.includes(tool.risk) ? tool.risk : 'caution';
    const tags: Pick<
      ToolDefinition,
      'description' | 'risk' | 'requiresApproval' | 'provider' | 'app' | 'group'
    > = {
      description: typeof tool.description === 'string' ? tool.description : '',
      risk,
      requiresApproval:
        risk === 'safe' ? false : typeof tool.requiresApproval === 'boolean' ? tool.requiresApproval : true,
      provider: provider.name,
      app,
      group: groupOf(tool.group, fallback),
    };
    tools.push(Object.assign(ownCopy(tool), tags));
  });
  return { tools, problems };
}

/**
 * What `{ ...value }` makes (its own enumerable properties, symbols included, a key named `__proto__`
 * as a plain property), built by adding them one by one: once a spread site has seen a few objects,
 * Node 20's V8 gives each copy a hidden class of its own (10,000 tools held 10,000 of them, each with
 * its descriptors), where properties added one by one share theirs.
 */
function ownCopy<T extends object>(value: T): T {
  const from = value as Record<PropertyKey, unknown>;
  const out: Record<PropertyKey, unknown> = {};
  for (const key of Reflect.ownKeys(value)) {
    if (!Object.prototype.propertyIsEnumerable.call(value, key)) continue;
    // Defined, as a spread defines them: assigning `__proto__` sets the prototype, and assigning a key
    // Object.prototype holds (`toString`) throws where it is frozen.
    if (key in Object.prototype)
      Object.defineProperty(out, key, {
        value: from[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[key] = from[key];
  }
  return out as T;
}

function groupOf(declared: unknown, fallback: ToolGroup): ToolGroup {
  if (!isPlainObject(declared) || typeof declared.key !== 'string' || declared.key.trim() === '')
    return fallback;
  const purpose = typeof declared.purpose === 'string' ? declared.purpose : fallback.purpose;
  return { key: declared.key, own: fallback.own && declared.own !== false, purpose };
}

/**
 * What a provider returned, as a ToolResult: text becomes a result (a refusal when `refusal` is set), a
 * ToolResult passes through (a refusal is marked not-run), anything else is the provider's bug.
 */
export function toolResultOf(value: unknown, tool: string, refusal = false): ToolResult {
  if (typeof value === 'string') {
    return refusal
      ? { content: value, isError: true, notRun: 'refused_by_tool' }
      : { content: value, isError: false };
  }
  if (isPlainObject(value) && typeof value.content === 'string') {
    const result = { ...value, isError: value.isError === true || refusal } as ToolResult;
    // Only text is read from the rest: a hint that is a list nested thousands deep would overflow the stack
    // when it is turned into text, and the model reads hints as lines.
    const { hints, reason, ...rest } = result as ToolResult & { hints?: unknown; reason?: unknown };
    const cleaned: ToolResult = {
      ...rest,
      ...(hints === undefined ? {} : { hints: Array.isArray(hints) ? hints.filter(isText) : [] }),
      ...(typeof reason === 'string' ? { reason } : {}),
    };
    return refusal && cleaned.notRun === undefined ? { ...cleaned, notRun: 'refused_by_tool' } : cleaned;
  }
  return {
    content: `Error: ${tool} returned something that is not a tool result (its provider has a bug).`,
    isError: true,
  };
}

function isText(value: unknown): value is string {
  return typeof value === 'string';
}
