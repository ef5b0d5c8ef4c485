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
  send(message: AutomationMessage): Promise<{ readonly status: string }>;
}
