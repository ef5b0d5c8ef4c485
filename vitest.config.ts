import { defineConfig } from 'vitest/config';

// No test has a deadline shorter than a busy two-core machine needs: tests that start processes (the
// CLI, MCP servers, the sandbox) take several times longer there than on a quiet one.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The tests that start the CLI as a process start a build of it made once per run.
    globalSetup: ['test/support/build-cli.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
