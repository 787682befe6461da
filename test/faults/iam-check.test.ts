/**
 * After the fault scenarios (a project of its own, run after theirs: vitest.faults.config.ts):
 * every AWS call their stages made, in the test's process or in a child stage process
 * (test/support/stage-process.ts, AWS_CALL_LOG), is asked of the synthesized role of the function
 * that made it, as test/api-coverage/iam.test.ts does for the api and integration projects. Calls
 * outside any function's scope (the stage's own seeding) are counted, not checked.
 */
import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { synthesize } from '../infra/synth';
import { checkCalls, readCallLogs, writeIamReport, type IamReport } from '../support/iam-check';

const reportFile = new URL('../../.local/iam-faults.json', import.meta.url).pathname;

describe('the deployed roles against every AWS call of the fault scenarios', () => {
  let report: IamReport;
  let recorded = 0;
  let files: string[] = [];
  beforeAll(async () => {
    const calls = readCallLogs(inject('faultsCallLog'));
    recorded = calls.length;
    files = readdirSync(inject('faultsCallLog')).filter((f) => f.endsWith('.json'));
    report = await checkCalls(synthesize(), calls, { declared: false });
    writeIamReport(report, reportFile);
    const unattributed = report.unattributed.reduce((n, c) => n + c.count, 0);
    console.log(
      `IAM (faults): ${report.calls} calls evaluated, ${report.distinct} distinct, ${report.denied.length} denied; functions ${report.exercised.length} of ${report.functions} (outside any function: ${unattributed})`,
    );
  }, 300_000);

  it('recorded the stages of both scenarios', () => {
    expect(recorded, 'no AWS call recorded: run this project with the scenarios (npm run faults)').toBeGreaterThan(0);
    expect(report.calls).toBeGreaterThan(0);
    // The in-process stage's file, and the child stage's, one per start (it is started twice).
    expect(files.filter((f) => f.startsWith('database-down'))).toHaveLength(1);
    expect(files.filter((f) => f.startsWith('stage-killed')).length).toBeGreaterThanOrEqual(2);
  });

  it('allowed every call by the role of the function that made it', () => {
    expect(report.denied).toEqual([]);
  });
});
