import { defineConfig } from 'vitest/config';

/**
 * `npm run test:bundles`: the synthesized bundles of the dev stage invoked as AWS invokes them
 * (docs/testing.md, "The bundles that deploy"). Not part of `npm test`: it needs a `cdk synth`
 * (about a minute here) and loads every function's bundle. CI runs it after its own synth, with
 * BUNDLES_CDK_OUT naming that folder.
 */
process.env.API_KEY_HASH_COST ??= '4';

export default defineConfig({
  test: {
    include: ['test/bundles/**/*.test.ts'],
    globalSetup: ['test/bundles/setup.ts'],
    maxWorkers: 1,
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
