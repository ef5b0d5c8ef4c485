import type { WireTool } from '../../core/model.js';
import type { OfferedTool } from '../../seam/index.js';

/** What `requestTools` builds a request's tools from. */
export interface RequestToolInputs {
  /** The turn's selection, in catalog order. */
  readonly selected: readonly OfferedTool[];
  /** True when tools are deferred to the catalog (the meta-tools then travel too). */
  readonly reduced: boolean;
  /** How relevant the turn's selection found each tool. */
  readonly rank: ReadonlyMap<string, number>;
}

/** The tools one turn offers with full schemas, and the catalog note for the rest. */
export interface TurnTools extends RequestToolInputs {
  readonly selected: readonly OfferedTool[];
  /** True when some tools are deferred to the catalog (then the meta-tools are offered too). */
  readonly reduced: boolean;
  /** The system note listing the deferred tools ("" when nothing is deferred). */
  readonly note: string;
}

/** The tools of one request, and which offered tools (real names) it carries with full schemas. */
export interface RequestTools {
  /** Frozen: a turn's next request may carry the very same list (see `requestTools`). */
  readonly tools: readonly WireTool[];
  readonly carried: ReadonlySet<string>;
}
