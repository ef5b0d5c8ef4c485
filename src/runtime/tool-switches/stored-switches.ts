import type { SessionStore, ToolSwitchRecord } from '../../core/session-store.js';
import type { ToolRegistry } from '../../tools/registry/tool-registry.js';
import type { DenyRule } from '../runtime-options.js';
import { denyRuleFor } from '../surface/tool-access.js';
import type { FixedBy } from './switch-errors.js';

/**
 * The tool switches people flipped (from any process on the store), applied to one registry. A read
 * asks only for the switches flipped since the last one it saw: one index seek when none was, so every
 * turn can afford it. The config's `disabledTools` and `denyList` stay as written whatever is stored.
 */
export class StoredSwitches {
  private seen = 0;
  private readonly latest = new Map<string, ToolSwitchRecord>();

  constructor(
    private readonly store: Pick<SessionStore, 'listToolSwitches'>,
    private readonly registry: ToolRegistry,
    private readonly denyList: readonly DenyRule[],
  ) {}

  /** The config key that keeps `tool` off, or null when a switch may change it. */
  fixedBy(tool: string): FixedBy | null {
    if (this.registry.startedOff.includes(tool)) return 'disabledTools';
    return denyRuleFor(this.denyList, tool) ? 'denyList' : null;
  }

  /** The deny-list pattern that covers `tool`, if any. */
  denyPattern(tool: string): string | undefined {
    return denyRuleFor(this.denyList, tool)?.tool;
  }

  /** Reads the switches flipped since the last read and applies each one a switch may change. */
  async sync(): Promise<void> {
    const changed = await this.store.listToolSwitches({ afterSeq: this.seen });
    for (const flip of changed) {
      // Two reads at once bring the same flips: each is applied once, in order.
      if (flip.seq <= this.seen) continue;
      this.seen = flip.seq;
      this.latest.set(flip.tool, flip);
      if (this.fixedBy(flip.tool) === null) this.registry.setEnabled(flip.tool, flip.on);
    }
  }

  /** The last switch of `tool` read, if any. */
  of(tool: string): ToolSwitchRecord | undefined {
    return this.latest.get(tool);
  }

  /** Every tool with a switch read. */
  tools(): readonly string[] {
    return [...this.latest.keys()];
  }
}
