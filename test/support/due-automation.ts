import { openSessionStore } from '../../src/store/index.js';

/** Writes an automation straight into the store at `db`, due `lateMs` ago (a daily 08:00 schedule). */
export async function dueAutomation(db: string, name: string, lateMs: number): Promise<void> {
  const store = openSessionStore({ path: db });
  try {
    await store.createAutomation({
      name,
      schedule: 'every day at 08:00',
      cron: '0 8 * * *',
      prompt: 'Write the digest.',
      nextRunAt: Date.now() - lateMs,
    });
  } finally {
    await store.close();
  }
}
