/**
 * Ends a run with one plain line, `N passed, N failed, N skipped`, which CI and people can read
 * without knowing Vitest's own summary format; before it, when the api project ran, how many of
 * its answers were checked against the OpenAPI description (test/support/answer-log.ts; per
 * operation in the record it names); when the IAM check ran, its counts (test/support/iam-summary.ts); when the sweeps, the fuzz or fault scenarios ran, their
 * totals (.local/sweeps.json, .local/fuzz.json, .local/faults/).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { answerTotals, readAnswerLog } from './answer-log';
import { faultRecordOf, type FaultCounts } from './fault-log';
import { iamLines } from './iam-summary';

export default class SummaryReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') count.passed++;
        else if (state === 'failed') count.failed++;
        else count.skipped++;
      }
      if (m.state() === 'failed' && [...m.children.allTests()].length === 0) count.failed++; // a file that failed to load
    }
    process.stdout.write(
      `\n${this.answerLine()}${iamLines(modules)}${sweepLine(modules)}${fuzzLine(modules)}${faultLines(modules)}${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`,
    );
  }

  /** The answer check's totals, when the api project ran in this run. */
  private answerLine(): string {
    const file = this.vitest?.getProvidedContext().answerLog;
    if (!file || !existsSync(file)) return '';
    const log = readAnswerLog(file);
    const t = answerTotals(log);
    return `answer check: ${t.answers} API answers of ${t.operations} operations checked against the OpenAPI description (${t.typed} successes with typed data), ${log.problemCount} mismatched; per operation in ${file}\n`;
  }
}

const ran = (modules: ReadonlyArray<TestModule>, file: string) => modules.some((m) => m.moduleId.endsWith(file));

/** Where test/api/sweeps.test.ts writes its counts. */
export const sweepsFile = new URL('../../.local/sweeps.json', import.meta.url).pathname;

/** The tenancy and permission sweeps' counts, when test/api/sweeps.test.ts ran in this run. */
function sweepLine(modules: ReadonlyArray<TestModule>): string {
  if (!ran(modules, 'test/api/sweeps.test.ts') || !existsSync(sweepsFile)) return '';
  const s = JSON.parse(readFileSync(sweepsFile, 'utf8')) as Record<string, number>;
  return `sweeps: ${s.swept} routes swept (tenancy ${s.tenancy}, permission ${s.permission}, location ${s.location}, sanity ${s.sanity}), ${s.leaks} leaks, ${s.missing404s} missing 404s, ${s.missing403s} missing 403s, ${s.writes} writes; in ${sweepsFile}\n`;
}

/** The fuzz's totals (test/api/fuzz.test.ts), when it ran in this run (not by the file's time: a faked clock would hide it). */
function fuzzLine(modules: ReadonlyArray<TestModule>): string {
  const file = new URL('../../.local/fuzz.json', import.meta.url).pathname;
  if (!ran(modules, 'test/api/fuzz.test.ts') || !existsSync(file)) return '';
  const f = JSON.parse(readFileSync(file, 'utf8')) as {
    seed: number;
    routes: number;
    requests: number;
    refused: number;
    fiveXX: number;
    faults: number;
    stateChanges: number;
  };
  return `fuzz: ${f.requests} requests to ${f.routes} routes (${f.refused} refused), ${f.fiveXX} answered 5xx, ${f.faults} wrong answers, ${f.stateChanges} state changes on refusals; seed ${f.seed}; per route in ${file}\n`;
}

/** What each fault scenario's burst did (test/support/fault-log.ts), for the scenarios that ran and passed. */
function faultLines(modules: ReadonlyArray<TestModule>): string {
  return modules
    .filter(
      (m) => m.moduleId.includes('/test/faults/') && m.state() === 'passed' && existsSync(faultRecordOf(m.moduleId)),
    )
    .map((m) => {
      const f = JSON.parse(readFileSync(faultRecordOf(m.moduleId), 'utf8')) as FaultCounts & { scenario: string };
      return `faults: ${f.scenario}: ${f.sent} writes sent, ${f.acknowledged} acknowledged, ${f.refused} refused 503, ${f.lost} without an answer; ${f.stored} stored, each whole, ${f.delivered} delivered once each by webhook-id (${f.arrivals} arrivals); acknowledged but missing: ${f.lostToDynamoDbLocal} (whole, in DynamoDB Local's window before its kill; docs/testing.md)\n`;
    })
    .join('');
}
