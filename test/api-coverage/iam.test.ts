/**
 * Every AWS call the suite made is allowed by the synthesized role of the function that made it,
 * as a published IAM policy simulator decides (test/support/iam-check.ts, test/infra/iam.ts): the
 * api project's stage (each operation, the authorizer in front of it, the webhook dispatcher and
 * delivery, the no-show sweeper; bin/local/function-scope.ts) and, when the integration project
 * ran in the same run, its files' calls made as a function (`asFunction`). With them, what AWS and
 * CDK's code do with the roles that no test sees (declared calls: logs, the SQS poller, custom
 * resources, the trigger). A call a role would refuse is a request that fails on AWS while passing
 * every local test: the test names the function, the action and the resource.
 *
 * Like routes.test.ts, it needs the api project in the same run (`npm test`). The report it writes
 * (.local/iam-check.json) is summed up by the summary reporter.
 */
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { routes, type Route } from '../../shared/routes';
import { functionRoles } from '../infra/iam';
import { synthesize } from '../infra/synth';
import type { AwsCall } from '../support/aws-call-log';
import { checkCalls, functionName, readCallLogs, writeIamReport, type IamReport } from '../support/iam-check';

const apiCalls = (): AwsCall[] => {
  const dir = inject('apiCallLog');
  expect(
    dir && existsSync(dir),
    'no record of AWS calls: run this project together with the api project (npm test)',
  ).toBe(true);
  return readCallLogs(dir);
};
/** The integration files' calls, when that project ran in this run. */
const integrationCalls = (): AwsCall[] => {
  const dir = inject('integrationCallLog');
  return dir ? readCallLogs(dir) : [];
};

describe('the deployed roles against every AWS call of the suite', () => {
  const synth = synthesize();
  let report: IamReport;
  // Reading the templates synthesizes every stack: seconds each, once.
  beforeAll(async () => {
    report = await checkCalls(synth, [...apiCalls(), ...integrationCalls()]);
    writeIamReport(report);
  }, 300_000);

  it('recorded calls of every operation (each counts its request at least), the fallback, the authorizer, the pipeline and the sweeper', () => {
    const exercised = new Set(report.exercised);
    const expected = [
      ...(routes as readonly Route[]).map((r) => r.operationId),
      'fallback',
      'authorizer',
      'webhook-dispatcher',
      'webhook-delivery',
      'no-show-sweeper',
    ];
    expect(expected.map(functionName).filter((f) => !exercised.has(f))).toEqual([]);
  });

  it('allowed every call, observed and declared, by the role of the function that made it', () => {
    expect(report.denied).toEqual([]);
  });

  it('lists the functions of the template no call exercised: only CDK-provided ones and, without the integration project, the catalog seed', () => {
    const roles = functionRoles(synth);
    const integrationRan = Boolean(inject('integrationCallLog'));
    const expectedMissing = report.missing.filter(
      (f) => !roles.get(f)?.cdkProvided && (integrationRan || f !== functionName('catalog-seed')),
    );
    expect(expectedMissing).toEqual([]);
  });
});
