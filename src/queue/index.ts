export { openPgBossQueue, type PgBossQueueOptions } from './pg-boss-queue.js';
