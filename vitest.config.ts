import { defineConfig } from 'vitest/config';

/**
 * Four suites: unit (pure logic, no I/O), integration (data layer against DynamoDB Local),
 * api (HTTP against the local stage), infra (synthesized CloudFormation).
 */
export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Error paths are tested on purpose; their structured logs would only bury the results.
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'integration', include: ['test/integration/**/*.test.ts'], globalSetup: ['test/support/dynamodb-setup.ts'], setupFiles: ['test/support/integration-env.ts'], testTimeout: 30_000, hookTimeout: 60_000 },
      },
      {
        extends: true,
        test: { name: 'api', include: ['test/api/**/*.test.ts'], globalSetup: ['test/support/local-stage-setup.ts'], testTimeout: 60_000, hookTimeout: 120_000 },
      },
      { extends: true, test: { name: 'infra', include: ['test/infra/**/*.test.ts'], testTimeout: 120_000 } },
    ],
  },
});
