import { defineConfig } from 'vitest/config';

/**
 * `npm run faults`: the fault scenarios of test/faults/ (docs/testing.md), each with a
 * stage and a DynamoDB Local of its own that it kills and starts again. They take a minute or more
 * each, so they run here and in CI (.ci/run), not in `npm test`; the quick one (throttling) is in
 * the integration suite. Their stages' AWS calls are recorded (test/support/faults-call-log-setup.ts)
 * and, once both scenarios ran, checked against the synthesized roles (faults-iam, group 2).
 */
process.env.API_KEY_HASH_COST ??= '4';

const CHECK = 'test/faults/iam-check.test.ts';

export default defineConfig({
  test: {
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
    testTimeout: 300_000,
    hookTimeout: 300_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'faults',
          include: ['test/faults/**/*.test.ts'],
          exclude: [CHECK],
          globalSetup: ['test/support/faults-call-log-setup.ts'],
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'faults-iam',
          include: [CHECK],
          globalSetup: ['test/support/synth-setup.ts'],
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
