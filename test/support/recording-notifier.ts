import type { AutomationMessage, ResultNotifier } from '../../src/runtime/automations/index.js';

/** A notifier that keeps what it is handed, and lets a test wait for the next message. */
export class RecordingNotifier implements ResultNotifier {
  readonly sent: AutomationMessage[] = [];
  private waiting: ((message: AutomationMessage) => void) | undefined;

  async send(message: AutomationMessage): Promise<{ status: string }> {
    this.sent.push(message);
    this.waiting?.(message);
    this.waiting = undefined;
    return { status: 'queued' };
  }

  /** The next message handed over. */
  next(): Promise<AutomationMessage> {
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }
}
