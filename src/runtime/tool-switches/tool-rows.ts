import type { QuarantineRecord } from '../../core/session-store.js';
import { describeModel } from '../../core/turn-model.js';
import {
  issueText,
  type ToolStatus,
  type ToolsPage,
  type ToolsPageFailure,
} from '../../tools/registry/tools-page.js';
import type { StoredSwitches } from './stored-switches.js';
import type { FixedBy } from './switch-errors.js';

/** Who flipped a switch, as a person reads it ("http" and "cli" are how the runtime records them). */
function switchedBy(by: string | undefined): string {
  if (by === undefined) return '';
  if (by === 'http') return ' on the Tools page (or through the HTTP API)';
  if (by === 'cli') return ' with `toolseam tools`';
  return ` by ${by}`;
}

/** When a switch was flipped, to the minute in UTC: an ISO time with seconds and milliseconds reads as noise. */
function switchedAt(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return `at ${iso}`;
  return `on ${at.toISOString().slice(0, 10)} at ${at.toISOString().slice(11, 16)} UTC`;
}

/** One row of the Tools page as a host shows it: where the tool stands, and its switch. */
export interface ToolRow {
  /** The real name: what a switch names. */
  readonly name: string;
  readonly wireName: string;
  readonly provider: string;
  readonly app: string;
  /** The catalog group's key. */
  readonly group: string;
  readonly status: ToolStatus;
  /** Why it stands where it does, in words; null for a tool offered as declared. */
  readonly why: string | null;
  readonly description: string;
  /**
   * Its switch as the page shows it: false when the config, a quarantine on this model or a person keeps
   * it off (the seam may still leave a switched-on tool out: see `status`).
   */
  readonly on: boolean;
  /** The config key that keeps it off (the owner's fixed policy, which no switch changes), or null. */
  readonly fixed: FixedBy | null;
  /** Its quarantine on this runtime's model (a provider refused its definition), or null. */
  readonly quarantine: { readonly provider: string; readonly model: string; readonly said: string } | null;
  /** The person's last switch of it, or null when nobody switched it. */
  readonly switched: { readonly on: boolean; readonly at: string; readonly by: string | null } | null;
}

/** The Tools page as data: every tool, the providers' load failures, and every quarantine on any model. */
export interface ToolsPageData {
  readonly tools: readonly ToolRow[];
  readonly failures: readonly ToolsPageFailure[];
  readonly quarantined: readonly QuarantineRecord[];
  /** Which ranking chose the last turn's tools: "words", or words fused with embeddings. */
  readonly ranking?: string;
}

/** The page's rows with their switches, for the runtime's `provider` and `model`. */
export function toolRows(
  page: ToolsPage,
  switches: StoredSwitches,
  quarantined: readonly QuarantineRecord[],
  on: { readonly provider: string; readonly model: string },
): ToolRow[] {
  const here = new Map(
    quarantined.filter((q) => q.provider === on.provider && q.model === on.model).map((q) => [q.tool, q]),
  );
  return page.rows.map((row) => {
    const fixed = switches.fixedBy(row.name);
    const q = here.get(row.name);
    const flip = switches.of(row.name);
    const quarantine = q ? { provider: q.provider, model: q.model, said: q.said } : null;
    const offered = fixed === null && quarantine === null && !row.switchedOff;
    let why: string | null;
    if (fixed === 'disabledTools') why = `switched off by "disabledTools" in toolseam's configuration`;
    else if (fixed === 'denyList' || (row.status === 'excluded' && !row.switchedOff))
      why = row.reason ?? null;
    else if (q) {
      const said = q.said === '' ? '' : ` (${q.said})`;
      why = `the model provider refused its definition on ${describeModel(q)}${said}; switching it on tries again`;
    } else if (row.switchedOff) {
      why = `switched off${switchedBy(flip?.changedBy)}${flip ? ` ${switchedAt(flip.changedAt)}` : ''}`;
    } else why = row.issues.length === 0 ? null : row.issues.map(issueText).join('; ');
    return {
      name: row.name,
      wireName: row.wireName,
      provider: row.provider,
      app: row.app,
      group: row.group.key,
      status: quarantine && row.status !== 'excluded' ? 'excluded' : row.status,
      why,
      description: row.description,
      on: offered,
      fixed,
      quarantine,
      switched: flip ? { on: flip.on, at: flip.changedAt, by: flip.changedBy ?? null } : null,
    };
  });
}
