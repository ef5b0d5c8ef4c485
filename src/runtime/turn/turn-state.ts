import type { WireTool } from '../../core/model.js';
import type { RequestToolInputs, RequestTools, TurnTools } from '../surface/turn-tools.js';

/** What a turn's steps change as it goes (its environment stays as it began: see `TurnEnvironment`). */
export interface TurnState {
  /** Model calls made so far this turn. */
  modelCalls: number;
  /** Tool calls run so far this turn. */
  toolCalls: number;
  /** How many times each call digest ran this turn (the loop breaker). */
  readonly repeats: Map<string, number>;
  /** Scratch space the turn's calls share (e.g. which files were read): the tools' `turnState`. */
  readonly scratch: Map<string, unknown>;
  /** Tools whose schema the model asked for this turn: offered with full schemas from the next call. */
  readonly activated: Set<string>;
  /** Tools whose definition the provider refused this turn: never offered again this turn. */
  readonly refused: Set<string>;
  /**
   * Tools quarantined for this provider and model (real name → what the provider said): those from
   * earlier turns are not on the surface at all; those of this turn are in `refused` too.
   */
  readonly quarantined: Map<string, string>;
  /** Set once this turn has sent a request again without the tools it quarantined (it never does twice). */
  resentWithout?: readonly string[];
  /** A context-window refusal this turn: `compact` before the next request, `resent` once that was done. */
  overflowed?: 'compact' | 'resent';
  /** The turn's tool selection, made once when a step first needs it (see `turnToolsOf`). */
  turnTools?: Promise<TurnTools>;
  /** The tools of the turn's last request and what they were made from (see `requestTools`). */
  requestTools?: {
    readonly turn: RequestToolInputs;
    /** The tools asked for and refused then. */
    readonly key: string;
    /** The runtime's own tools then. */
    readonly own: readonly WireTool[];
    readonly made: RequestTools;
  };
  /**
   * The system text of the turn's last request, with the tools whose catalog note and the refused-tools
   * note it holds: the next request sends that text again (already checked for half characters) while
   * both stay the same.
   */
  systemText?: { readonly tools: TurnTools; readonly refused: string; readonly text: string };
  /**
   * The ids of the turn's calls, kept once known (a turn begun here starts with none; a resumed one reads
   * its calls first), so a reply's ids are checked without reading the turn's calls each time.
   */
  callIds?: Set<string>;
  /** Set when the final answer was stored with the turn marked done (one write): its end needs no write of its own. */
  endStored?: boolean;
}

/**
 * A turn's state as it starts: nothing counted, asked for or refused yet. `quarantined` is the map the
 * turn's surface was built with, kept as it is: a tool quarantined mid-turn is then left out there too.
 */
export function freshTurnState(quarantined: Map<string, string>): TurnState {
  return {
    modelCalls: 0,
    toolCalls: 0,
    repeats: new Map(),
    scratch: new Map(),
    activated: new Set(),
    refused: new Set(),
    quarantined,
  };
}
