/**
 * The summary reporter's lines for the IAM check (test/support/iam-check.ts), when a check ran in
 * this run: calls evaluated, denials, the functions of the template whose role was exercised, and
 * the roles that allow actions nothing exercised (over-grants or untested code paths).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { TestModule } from 'vitest/node';
import type { IamReport } from './iam-check';

const reportFile = new URL('../../.local/iam-check.json', import.meta.url).pathname;
const checks = ['test/api-coverage/iam.test.ts'];

export function iamLines(modules: ReadonlyArray<TestModule>): string {
  if (!modules.some((m) => checks.some((c) => m.moduleId.endsWith(c))) || !existsSync(reportFile)) return '';
  const r = JSON.parse(readFileSync(reportFile, 'utf8')) as IamReport;
  const unattributed = r.unattributed.reduce((n, c) => n + c.count, 0);
  const lines = [
    `IAM: ${r.calls} calls evaluated (${r.distinct} distinct) and ${r.declared} declared calls, ${r.denied.length} denied; functions whose role was exercised: ${r.exercised.length} of ${r.functions}${r.missing.length ? ` (missing: ${r.missing.join(', ')})` : ''}`,
    `IAM: ${unattributed} calls outside any function (test setup; ${r.unattributed.length} distinct), ${r.localStandIn} by the local stage's stand-in for the delivery queue; roles allowing actions nothing exercised: ${Object.keys(r.unexercised).length}; in ${reportFile}`,
  ];
  return `${lines.join('\n')}\n`;
}
