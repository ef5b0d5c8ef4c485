import { defineConfig, mergeConfig } from 'vitest/config';
import full from './vitest.config.js';

/**
 * The quick tier (`npm run test:quick`): unit and in-process tests, for while you work. It leaves out
 * the tests whose subject is a process: the CLI started as a person starts it (a terminal, typed input,
 * signals, a closed pipe, exit 1 with a turn left waiting, another user, several processes at once; the
 * CLI tests of what a command prints and stores run it in process and stay), the shell in its sandbox,
 * several processes sharing one database, a process killed mid-turn. `npm test` runs everything.
 */
const PROCESS_TESTS = [
  'test/cli/{approve,chat,conform,dev-provider,resume,sessions}-command.test.ts',
  'test/cli/{closed-output,full-disk,hosted-app-faults,launcher,mcp-slow-server}.test.ts',
  'test/cli/{resumed-model,stray-rejections,tool-quarantine,turn-config}.test.ts',
  'test/cli/run-due-processes.test.ts',
  'test/tools/builtin/bash-*.test.ts',
  'test/tools/builtin/sandbox-*.test.ts',
  'test/tools/builtin/run-command.test.ts',
  'test/runtime/grants/shell-words-bash.test.ts',
  'test/**/crash*.test.ts',
  'test/store/concurrency.test.ts',
  'test/runtime/store-trouble.e2e.test.ts',
  'test/tools/mcp/stdio-group-transport.test.ts',
  'test/mcp-surface/mcp-serve-*.test.ts',
  'test/server/serve-automations.test.ts',
  'test/server/two-serves.test.ts',
  // Hosted mode: worker processes on the job queue, one killed mid-turn.
  'test/runtime/jobs/*.e2e.test.ts',
  'test/cli/worker-command.test.ts',
  // The page in headless Chromium against the server.
  'test/web/browser-*.test.ts',
];

// One module graph per worker instead of one per file: loading the sources again for each of some 180
// files took most of the tier's time (393 s against 166 s at load 2). The full tier keeps files isolated.
const quick = mergeConfig(
  full,
  defineConfig({ test: { exclude: ['node_modules/**', ...PROCESS_TESTS], isolate: false } }),
);

// No test here starts the CLI as a process, so the build of it the full tier makes first is left out.
export default { ...quick, test: { ...quick.test, globalSetup: [] } };
