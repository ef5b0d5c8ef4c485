import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// No test has a deadline shorter than a busy two-core machine needs: tests that start processes (the
// CLI, MCP servers, the sandbox) take several times longer there than on a quiet one.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The tests that start the CLI as a process start a build of it made once per run.
    globalSetup: ['test/support/build-cli.ts'],
    // One file more at a time than there are cores (Vitest's default is one fewer, a single worker on two
    // cores): the tests wait (on timers, servers, children) more than they compute; the quick tier used
    // 95 s of CPU in 197 s on one worker.
    maxWorkers: availableParallelism() + 1,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
