import { defineConfig } from 'vitest/config';

/**
 * Four suites: unit (pure logic, no I/O), integration (data layer against DynamoDB Local),
 * api (HTTP against the local stage), infra (synthesized CloudFormation); and api-coverage, which
 * checks that the api suite called every route and that every AWS call of the api and integration
 * suites is allowed by its function's role, so it runs after them: api and integration are group 1,
 * api-coverage group 2 (not 0 and 1: with one worker, Vitest runs group-0 projects last, in a group
 * of their own).
 */
// The suites make a few hundred API keys: the local stage and the workers hash them at bcrypt cost 4
// rather than 10 (shared/auth/apiKey.ts `hashCost`; deployed stages ignore it). Set here, in the
// main process, so the stages the global setups start and the workers they fork all see it.
process.env.API_KEY_HASH_COST ??= '4';

/** API files that start a local stage of their own, in-process (each runs isolated; see the api-own-stage project). */
const OWN_STAGE = ['test/api/webhooks-delivery.test.ts'];

export default defineConfig({
  test: {
    // Two workers, whatever the machine: test files own their data, so they may overlap, and the
    // api suite waits mostly on the stage and DynamoDB Local, so two files at once nearly halve its
    // time on 2 cores (Vitest's own default there is one). `npm run test:parallel` runs four.
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Error paths are tested on purpose; their structured logs would only bury the results.
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        // Group 1 with api: api-coverage (group 2) checks its AWS calls against the roles too.
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/dynamodb-setup.ts'],
          setupFiles: ['test/support/integration-env.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        // API files talk to the stage over HTTP and mock nothing: they share a worker's module
        // cache (the route table, the OpenAPI document, the answer check's compiled schemas are
        // loaded once per worker, not once per file). Their own state lives in the file's module.
        test: {
          name: 'api',
          include: ['test/api/**/*.test.ts'],
          exclude: OWN_STAGE,
          globalSetup: ['test/support/local-stage-setup.ts'],
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 1 },
        },
      },
      // A file that starts a stage in its own worker (bin/local/stage.ts sets the worker's environment,
      // data client and id blocks to that stage's database) runs isolated: nothing it points
      // elsewhere may outlive it in a worker the shared stage's files use next.
      {
        extends: true,
        test: {
          name: 'api-own-stage',
          include: OWN_STAGE,
          isolate: true,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 1 },
        },
      },
      // Infra files only read synthesized templates: they share a worker's module cache, so the
      // common stacks are synthesized once per worker, not once per file (test/infra/synth.ts).
      {
        extends: true,
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          globalSetup: ['test/support/synth-setup.ts'],
          isolate: false,
          testTimeout: 120_000,
        },
      },
      // iam.test.ts synthesizes the stack too (test/infra/synth.ts): its assemblies go to the run's folder.
      {
        extends: true,
        test: {
          name: 'api-coverage',
          include: ['test/api-coverage/**/*.test.ts'],
          globalSetup: ['test/support/synth-setup.ts'],
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
