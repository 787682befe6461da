import { defineConfig } from 'vitest/config';

/**
 * `npm run faults`: the fault scenarios of test/faults/ (issue 15; docs/testing.md), each with a
 * stage and a DynamoDB Local of its own that it kills and starts again. They take a minute or more
 * each, so they run here and in CI (.ci/run), not in `npm test`; the quick one (throttling) is in
 * the integration suite.
 */
process.env.API_KEY_HASH_COST ??= '4';

export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
