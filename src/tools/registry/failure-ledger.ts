import { headOf } from '../../core/text-cut.js';
/** What kind of load failure a provider had; a provider keeps at most one failure of each kind. */
export type LoadFailureKind =
  /** listTools threw or timed out: none of its tools are served. */
  | 'list'
  /** Its listing had malformed entries, which were left out. */
  | 'listing'
  /** Another provider already serves a name it lists. */
  | 'duplicate'
  /** The seam found no portable form for some of its tools. */
  | 'not_offered'
  /** Some of its tools would travel under a wire name another tool has. */
  | 'name_clash';

/** Why some or all of a provider's tools are not served, as the Tools page shows it. */
export interface LoadFailure {
  readonly provider: string;
  readonly app: string;
  readonly kind: LoadFailureKind;
  /** One or two sentences, at most {@link MAX_FAILURE_CHARS} characters. */
  readonly message: string;
}

/** Longest failure message kept; longer ones are cut with an ellipsis. */
export const MAX_FAILURE_CHARS = 300;

/** Load failures deduplicated per provider and kind: a later record replaces an earlier one. */
export class FailureLedger {
  private readonly entries = new Map<string, LoadFailure>();

  /** Records (or replaces) the failure of `kind` for `provider`. */
  record(provider: string, app: string, kind: LoadFailureKind, message: string): void {
    const text =
      message.length > MAX_FAILURE_CHARS ? `${headOf(message, MAX_FAILURE_CHARS - 1).trimEnd()}…` : message;
    this.entries.set(key(provider, kind), { provider, app, kind, message: text });
  }

  /** Forgets the failure of `kind` for `provider` (it no longer applies). */
  clear(provider: string, kind: LoadFailureKind): void {
    this.entries.delete(key(provider, kind));
  }

  /** Forgets every failure of `provider`. */
  forget(provider: string): void {
    for (const [k, failure] of this.entries) if (failure.provider === provider) this.entries.delete(k);
  }

  /** Every failure, in the order first recorded. */
  all(): LoadFailure[] {
    return [...this.entries.values()];
  }
}

function key(provider: string, kind: LoadFailureKind): string {
  return `${provider}\u0000${kind}`;
}

/** The message of anything thrown. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
