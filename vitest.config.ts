import { defineConfig } from 'vitest/config';

// No test has a deadline shorter than a busy two-core machine needs: tests that start processes (the
// CLI from source, MCP servers, the sandbox) take several times longer there than on a quiet one.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
