import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { hostedQueue, readQueueConfig } from '../src/queue-config.js';

describe('the job queue setting', () => {
  it('is off on SQLite and implied by a PostgreSQL database, beside a store schema', () => {
    expect(hostedQueue(undefined, '/tmp/toolseam.db')).toBeUndefined();
    expect(hostedQueue(undefined, undefined)).toBeUndefined();
    expect(hostedQueue(undefined, 'postgres://u@h:5432/db')).toEqual({ url: 'postgres://u@h:5432/db' });
    expect(hostedQueue(undefined, 'postgres://u@h:5432/db?schema=team_a')).toEqual({
      url: 'postgres://u@h:5432/db',
      schema: 'team_a_jobs',
    });
    expect(hostedQueue(false, 'postgres://u@h/db')).toBeUndefined();
  });

  it('takes a URL or an object, and an object without a URL shares the PostgreSQL database', () => {
    expect(readQueueConfig('postgres://q@h/jobs')).toEqual({ url: 'postgres://q@h/jobs' });
    const settings = readQueueConfig({ work: false, concurrency: 8 });
    expect(settings).toEqual({ work: false, concurrency: 8 });
    expect(hostedQueue(settings, 'postgres://u@h/db')).toEqual({
      url: 'postgres://u@h/db',
      work: false,
      concurrency: 8,
    });
    expect(() => hostedQueue(settings, '/tmp/toolseam.db')).toThrow(/needs "url"/);
  });

  it('names what is wrong', () => {
    expect(() => readQueueConfig('redis://h')).toThrow(/postgres:\/\/ URL/);
    expect(() => readQueueConfig({ url: 'postgres://h/db', workers: 2 })).toThrow(/unknown key "workers"/);
    expect(() => readQueueConfig({ concurrency: 0 })).toThrow(/"concurrency" must be a whole number/);
    expect(() => readQueueConfig({ schema: 'a;b' })).toThrow(/"schema"/);
    expect(() => parseConfig({ queue: 3 }, { baseDir: '/tmp' })).toThrow(/"queue" in the config/);
  });
});
