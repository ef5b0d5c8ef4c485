/** An automation's result on its way to the owner. */
export interface AutomationMessage {
  /** The notify channel (the default one when absent). */
  readonly channel?: string | undefined;
  readonly text: string;
  /** Who sends it: `automation:<name>`. */
  readonly origin: string;
}

/**
 * Where automations hand their results: the notify outbox's `send` fits it as is. What it answers is
 * kept with the run (`sent`, `queued`, `refused` …).
 */
export interface ResultNotifier {
  send(message: AutomationMessage): Promise<NotifierAnswer>;
}

/** What a notifier answers, as far as a run's result reports it. */
export interface NotifierAnswer {
  /** `sent`, `queued` (it will be tried again), `refused` or `failed`. */
  readonly status: string;
  readonly refusal?: { readonly message: string };
  readonly reason?: string;
  readonly error?: string;
}

/** A notifier's answer in a few words: `sent`, `queued (the service said 503)`, `refused: …`. */
export function answerText(answer: NotifierAnswer): string {
  const why = answer.refusal?.message ?? answer.error ?? answer.reason;
  if (why === undefined) return answer.status;
  return answer.status === 'queued' ? `queued (${why})` : `${answer.status}: ${why}`;
}
