import { type Logger, silentLogger } from '../../core/logger.js';
import type { ToolDefinition, ToolGroup } from '../../core/tool.js';
import {
  derivedDescription,
  describeIssue,
  type ExcludedTool,
  hasDescription,
  type IssueAction,
  nameCensus,
  type OfferedTool,
  offerTool,
  type SchemaIssue,
  wireName,
} from '../../seam/index.js';
import type { ToolRegistry } from './tool-registry.js';

/** Where a tool stands with models: offered as declared, repaired, lifted to JSON text, or left out. */
export type ToolStatus = 'offered' | 'repaired' | 'lifted' | 'excluded';

/**
 * One reason a tool is where it is: a schema defect (with what the seam did), a name problem, a switch,
 * or the configuration's deny-list.
 */
export interface ToolsPageIssue {
  /** A seam rule id, `switched_off` or `denied`. */
  readonly rule: string;
  /** Where in the declared schema ("" for the root or the tool itself). */
  readonly path: string;
  readonly detail: string;
  readonly action: IssueAction;
  readonly fix?: string;
}

/** One tool on the Tools page. */
export interface ToolsPageRow {
  /** The real name. */
  readonly name: string;
  /** The name requests carry. */
  readonly wireName: string;
  readonly provider: string;
  readonly app: string;
  readonly group: ToolGroup;
  readonly status: ToolStatus;
  /** The description models are shown (written from the name and inputs when the tool has none). */
  readonly description: string;
  readonly descriptionDerived: boolean;
  /** Why the tool is left out, in words (only when excluded). */
  readonly reason?: string;
  /** Argument paths carried as JSON text (only when lifted). */
  readonly lifted: readonly string[];
  readonly issues: readonly ToolsPageIssue[];
  readonly switchedOff: boolean;
  /** True when the configuration's deny-list refuses the tool outright (it is not offered). */
  readonly denied: boolean;
  /** The definition as the provider declared it (tagged by the registry). */
  readonly definition: ToolDefinition;
}

/** A provider's load failure as the page shows it. */
export interface ToolsPageFailure {
  readonly provider: string;
  readonly app: string;
  readonly message: string;
}

/** Everything the Tools page shows, for the CLI or a host's own UI. */
export interface ToolsPage {
  /** Groups in catalog order (the platform's own first), each with its tools. */
  readonly groups: readonly { readonly group: ToolGroup; readonly rows: readonly ToolsPageRow[] }[];
  /** Every tool, in the same order. */
  readonly rows: readonly ToolsPageRow[];
  readonly failures: readonly ToolsPageFailure[];
  /** The registry's surface stamp the page was built at. */
  readonly stamp: string;
}

/** Options for {@link toolsPage}. */
export interface ToolsPageOptions {
  /** Where the seam's one line per tool goes (default: nowhere). */
  readonly logger?: Logger;
  /** The runtime's own tool names, which no provider tool may travel under (default: the seam's). */
  readonly reserved?: readonly string[];
  /**
   * The deny-list rule that refuses a tool outright, if any (a runtime's `denyRuleFor` over its deny-list):
   * such a tool is shown as left out, denied by the configuration.
   */
  readonly deniedBy?: (name: string) => { readonly reason?: string } | undefined;
  readonly signal?: AbortSignal;
}

/**
 * Builds the Tools page: serves the registry, passes every tool through the seam and the name census
 * as a turn would, and says of each tool whether it is offered as declared, repaired (what), lifted
 * (which paths) or left out (why). Tools that cannot be offered are also recorded as their provider's
 * load failures, so the page's failure list names them.
 */
export async function toolsPage(registry: ToolRegistry, options: ToolsPageOptions = {}): Promise<ToolsPage> {
  const logger = options.logger ?? silentLogger;
  const served = await registry.serve(options.signal);
  const items = new Map<ToolDefinition, OfferedTool | ExcludedTool>();
  for (const tool of [...served.tools, ...served.switchedOff]) items.set(tool, offerTool(tool, { logger }));
  const live = served.tools.map((t) => items.get(t)).filter((i): i is OfferedTool => i?.kind === 'offered');
  const census = nameCensus(live, options.reserved ? { logger, reserved: options.reserved } : { logger });
  for (const gone of census.excluded) items.set(gone.definition, gone);

  const switched = new Set(served.switchedOff);
  const rows = [...served.tools, ...served.switchedOff].map((tool) => {
    const row = rowOf(tool, items.get(tool) as OfferedTool | ExcludedTool, switched.has(tool));
    const rule = options.deniedBy?.(tool.name);
    return rule ? deniedRow(row, rule.reason) : row;
  });
  recordVerdicts(registry, rows);
  const groups = served.groups.map((group) => ({
    group,
    rows: rows.filter((r) => r.group.key === group.key),
  }));
  const ordered = groups.flatMap((g) => g.rows);
  const failures = registry.failures().map(({ provider, app, message }) => ({ provider, app, message }));
  return { groups, rows: ordered, failures, stamp: served.stamp };
}

function rowOf(tool: ToolDefinition, item: OfferedTool | ExcludedTool, switchedOff: boolean): ToolsPageRow {
  const base = {
    name: tool.name,
    provider: tool.provider ?? '',
    app: tool.app ?? '',
    group: tool.group ?? { key: tool.app ?? '', own: false, purpose: '' },
    switchedOff,
    denied: false,
    definition: tool,
  };
  const off: ToolsPageIssue[] = switchedOff
    ? [{ rule: 'switched_off', path: '', detail: 'someone switched this tool off', action: 'blocking' }]
    : [];
  if (item.kind === 'offered') {
    const common = {
      ...base,
      wireName: item.wireName,
      description: item.wireDescription,
      descriptionDerived: item.descriptionDerived,
      lifted: item.lifted.map((l) => l.path),
    };
    if (switchedOff) {
      return {
        ...common,
        status: 'excluded',
        reason: 'it is switched off',
        issues: [...off, ...item.repairs],
      };
    }
    const status: ToolStatus = item.verdict === 'portable' ? 'offered' : item.verdict;
    return { ...common, status, issues: item.repairs };
  }
  const derived = !hasDescription(tool.description);
  return {
    ...base,
    wireName: wireName(tool.name),
    status: 'excluded',
    description: derived ? derivedDescription(tool.name, tool.parameters) : tool.description,
    descriptionDerived: derived,
    reason: switchedOff ? `it is switched off, and ${item.message}` : item.message,
    lifted: [],
    issues: [...off, ...item.issues],
  };
}

/** A row as the deny-list leaves it: not offered, whatever the seam made of it, and saying why first. */
function deniedRow(row: ToolsPageRow, reason: string | undefined): ToolsPageRow {
  const said = reason === undefined ? '' : ` (${reason})`;
  const detail = `the deny-list in toolseam's configuration refuses it${said}`;
  const issue: ToolsPageIssue = { rule: 'denied', path: '', detail, action: 'blocking' };
  const also = row.status === 'excluded' ? `, and ${row.reason ?? 'it cannot be offered'}` : '';
  return {
    ...row,
    status: 'excluded',
    denied: true,
    reason: `the configuration's deny-list refuses it${said}${also}`,
    issues: [issue, ...row.issues],
  };
}

/** Records, per provider, the tools the seam could not offer and those whose wire name is taken. */
function recordVerdicts(registry: ToolRegistry, rows: readonly ToolsPageRow[]): void {
  const unportable = new Map<string, string[]>();
  const clashes = new Map<string, string[]>();
  for (const row of rows) {
    if (row.status !== 'excluded' || row.switchedOff || row.denied) continue;
    const naming = row.issues.find((i) => i.rule === 'name_collision' || i.rule === 'name_reserved');
    if (naming) {
      const sent = `${row.name} (sent as ${JSON.stringify(row.wireName)}${naming.rule === 'name_reserved' ? ', a name of the runtime’s own tools' : ''})`;
      push(clashes, row.provider, sent);
    } else {
      const blocking = row.issues.filter((i) => i.action === 'blocking').slice(0, 2);
      push(unportable, row.provider, `${row.name} (${blocking.map(issueText).join('; ')})`);
    }
  }
  // Every registered provider, not only those with tools now: one whose listing failed since must
  // not keep naming the tools it could not offer back then.
  const providers = new Set([
    ...registry.providers().map((p) => p.provider.name),
    ...rows.map((r) => r.provider),
  ]);
  for (const provider of providers) {
    const bad = unportable.get(provider);
    if (bad) {
      registry.recordFailure(
        provider,
        'not_offered',
        `not offered to models because the parameter schema has no portable form: ${bad.join('; ')}`,
      );
    } else registry.clearFailure(provider, 'not_offered');
    const taken = clashes.get(provider);
    if (taken) {
      registry.recordFailure(
        provider,
        'name_clash',
        `not offered to models because another tool is sent to them under the same name: ${taken.join('; ')}`,
      );
    } else registry.clearFailure(provider, 'name_clash');
  }
}

/** One line for a person: what is wrong where, and what the seam did about it. */
export function issueText(issue: ToolsPageIssue): string {
  if (issue.rule === 'switched_off' || issue.rule === 'denied') return issue.detail;
  return describeIssue(issue as SchemaIssue);
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The page in the Tools page's JSON shape: `{tools: [{name, wireName, provider, app, status, description, issues}], failures}`. */
export function toolsPageJson(page: ToolsPage): {
  tools: Array<
    Pick<ToolsPageRow, 'name' | 'wireName' | 'provider' | 'app' | 'status' | 'description' | 'issues'>
  >;
  failures: ToolsPageFailure[];
} {
  return {
    tools: page.rows.map(({ name, wireName: wire, provider, app, status, description, issues }) => ({
      name,
      wireName: wire,
      provider,
      app,
      status,
      description,
      issues,
    })),
    failures: [...page.failures],
  };
}
