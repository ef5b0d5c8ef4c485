import type { Logger } from '../../core/logger.js';
import type { SessionStore, ToolSwitchRecord } from '../../core/session-store.js';
import { wireName } from '../../seam/index.js';
import type { ToolRegistry } from '../../tools/registry/tool-registry.js';
import { toolsPage } from '../../tools/registry/tools-page.js';
import type { DenyRule } from '../runtime-options.js';
import { denyRuleFor } from '../surface/tool-access.js';
import { StoredSwitches } from './stored-switches.js';
import { knownTools, switchTool, type ToolSwitchRequest } from './switch-tool.js';
import { type ToolRow, type ToolsPageData, toolRows } from './tool-rows.js';

/** What a runtime's Tools page is built from. */
export interface ToolsBoardOptions {
  readonly registry: ToolRegistry;
  readonly store: SessionStore;
  readonly denyList: readonly DenyRule[];
  readonly logger: Logger;
  /** The runtime's model, whose quarantines the rows show. */
  readonly model: { readonly provider: string; readonly model: string };
}

/** A runtime's Tools page and switches: rows with their switch state, and switching by real name. */
export class ToolsBoard {
  readonly switches: StoredSwitches;

  constructor(private readonly options: ToolsBoardOptions) {
    this.switches = new StoredSwitches(options.store, options.registry, options.denyList);
  }

  /** Every tool with where it stands and its switch, as of the switches stored now. */
  async page(): Promise<ToolsPageData> {
    const { registry, store, logger, denyList, model } = this.options;
    await this.switches.sync();
    const page = await toolsPage(registry, { logger, deniedBy: (name) => denyRuleFor(denyList, name) });
    const quarantined = await store.listQuarantined();
    return { tools: toolRows(page, this.switches, quarantined, model), failures: page.failures, quarantined };
  }

  /** Stores a switch (switching on lifts the tool's quarantine) and returns the tool's row after it. */
  async flip(request: ToolSwitchRequest): Promise<ToolRow> {
    const { registry, store } = this.options;
    await this.switches.sync();
    const served = await registry.serve();
    const known = knownTools(served, await store.listQuarantined(), this.switches);
    const done = await switchTool(store, this.switches, known, request);
    const row = (await this.page()).tools.find((r) => r.name === request.tool);
    // A tool only a quarantine or an earlier switch knows (its server is not serving it now) has no row.
    return row ?? absentRow(done.switch);
  }
}

/** The row of a switched tool that nothing serves right now. */
function absentRow(flip: ToolSwitchRecord): ToolRow {
  return {
    name: flip.tool,
    wireName: wireName(flip.tool),
    provider: '',
    app: '',
    group: '',
    status: 'excluded',
    why: 'no provider serves it right now (its server may be down); the switch applies once it is back',
    description: '',
    on: flip.on,
    fixed: null,
    quarantine: null,
    switched: { on: flip.on, at: flip.changedAt, by: flip.changedBy ?? null },
  };
}
