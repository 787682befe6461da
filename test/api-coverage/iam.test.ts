/**
 * The roles the infrastructure gives (infra/data-access.ts) allow what the handlers really do: the
 * api project's stage records every DynamoDB item action each operation's handler made, and on
 * which partition (test/support/dynamo-log.ts), and each is asked of the synthesized role of that
 * operation's function (test/infra/iam.ts). A call the role would refuse is a request that fails
 * on AWS while passing every local test. Work outside requests (the stage's webhook pipeline and
 * no-show sweep) is asked of the pipeline's and sweeper's roles.
 *
 * Behind the authorizer, a handler never verifies a credential: the local stage runs the authorizer's
 * code in front of it within the same request (bin/local/gateway.ts), so the GetItem of a key lookup
 * recorded for an operation behind the authorizer is asked of the authorizer's role. The
 * local stage's webhook worker finds due deliveries in an index that on AWS an SQS queue replaces;
 * those Queries are left out.
 * Like routes.test.ts, it needs the api project in the same run (`npm test`).
 */
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { routes, type Route } from '../../shared/routes';
import { allowed, roleOfFunction, type Statement } from '../infra/iam';
import { synthesize } from '../infra/synth';
import { BACKGROUND, readDynamoLog, type DynamoCall } from '../support/dynamo-log';

const log = () => {
  const file = inject('dynamoLog');
  expect(file && existsSync(file), 'no record of DynamoDB calls: run this project together with the api project (npm test)').toBe(true);
  return readDynamoLog(file);
};

const describeCall = (who: string, c: DynamoCall) => `${who}: ${c.action}${c.index ? ` on ${c.index}` : ''} ${c.partition}`;
/** The local stage's delivery queue, the due index (shared/data/webhookDeliveries.ts); on AWS an SQS queue holds the deliveries. */
const localQueue = (c: DynamoCall) => c.action === 'Query' && c.index === 'gsi2' && c.partition.startsWith('WHDUE#');
/** The authorizer's own read of a key lookup, which the local stage makes in the same request. */
const credentialCheck = (route: Route | undefined, c: DynamoCall) => route?.permission != null && c.action === 'GetItem' && c.partition.startsWith('KEY#');

describe("the deployed roles against the API suite's DynamoDB calls", () => {
  const synth = synthesize();
  const byId = new Map((routes as readonly Route[]).map((r) => [r.operationId, r]));
  const statementsOf = (functionName: string) => roleOfFunction(synth, functionName).statements;
  // Reading the templates synthesizes every stack: seconds each, once.
  beforeAll(() => void statementsOf('brigade-dev-authorizer'), 300_000);

  it('recorded the calls of every operation (each counts its request at least)', () => {
    const recorded = log();
    expect((routes as readonly Route[]).map((r) => r.operationId).filter((id) => !recorded[id]?.length)).toEqual([]);
    expect(recorded.fallback?.length).toBeGreaterThan(0);
  });

  it("allowed every call an operation's handler made, by that operation's role", () => {
    const refused: string[] = [];
    for (const [operation, calls] of Object.entries(log())) {
      if (operation === BACKGROUND) continue;
      const route = byId.get(operation);
      const statements = statementsOf(`brigade-dev-${operation}`);
      for (const call of calls) if (!credentialCheck(route, call) && !allowed(statements, call)) refused.push(describeCall(operation, call));
    }
    expect(refused).toEqual([]);
  });

  it("allowed the credential checks of operations behind the authorizer, by the authorizer's role", () => {
    const authorizer = statementsOf('brigade-dev-authorizer');
    const checks = Object.entries(log()).flatMap(([operation, calls]) => calls.filter((c) => credentialCheck(byId.get(operation), c)).map((c) => [operation, c] as const));
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.filter(([, c]) => !allowed(authorizer, c)).map(([operation, c]) => describeCall(operation, c))).toEqual([]);
  });

  it("allowed the webhook pipeline's and the no-show sweep's calls, by one of their roles", () => {
    const roles: Statement[][] = ['brigade-dev-webhook-dispatcher', 'brigade-dev-webhook-delivery', 'brigade-dev-no-show-sweeper'].map(statementsOf);
    const calls = (log()[BACKGROUND] ?? []).filter((c) => !localQueue(c));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((c) => !roles.some((statements) => allowed(statements, c))).map((c) => describeCall(BACKGROUND, c))).toEqual([]);
  });
});
