import type { TurnStatus } from '../../core/events.js';

/** How a turn ended, with what the person reads. */
export interface TurnEnd {
  readonly status: TurnStatus;
  readonly message: string;
  readonly errorCode?: string;
}
