/**
 * `npm run faults`: a folder for the AWS calls of the scenarios' stages (one file per process or
 * start: test/support/aws-call-log.ts), which test/faults/iam-check.test.ts asks of the roles
 * after the scenarios; removed when the run ends.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    faultsCallLog: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'brigade-faults-calls-'));
  project.vitest.provide('faultsCallLog', dir);
  return () => rm(dir, { recursive: true, force: true });
}
