/**
 * Infra suite: one folder for every cloud assembly the test files synthesize (an App writes its
 * templates to disk), removed when the run ends. Without it each App made a `cdk.out…` folder of
 * its own in the system's temp dir and left it there, 4.5 MB a synthesis.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    synthDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'brigade-synth-'));
  project.provide('synthDir', dir);
  return () => rm(dir, { recursive: true, force: true });
}
