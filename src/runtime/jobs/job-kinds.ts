/** The kinds of job a hosted deployment puts on its queue. */
export const JOB_KINDS = {
  /** A turn to start, or to go on with (taken over from a dead worker, or answered while parked). */
  turn: 'turn',
  /** One subagent leaf of a batch whose parent turn is parked: to start, or to take over from a dead worker. */
  leaf: 'leaf',
  /** One due occurrence of an automation. */
  automation: 'automation',
} as const;
