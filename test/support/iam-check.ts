/**
 * One place that decides and reports: every recorded AWS call (test/support/aws-call-log.ts) is
 * asked of the synthesized role of the function that made it, through the policy simulator
 * (test/infra/iam.ts). Beside the observed calls, the calls AWS makes with a function's role that
 * no test sees are asked too, and marked declared: Lambda's writes to the function's log group,
 * X-Ray's when tracing is active, the SQS poller of an event source, and what CDK's own functions
 * do (the custom resources' SDK calls as the template spells them, the trigger's invocation).
 *
 * The report counts the calls, the denials (function, action, resource), the functions of the
 * template whose role was exercised, and per role the actions it allows that nothing exercised.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  functionRoles,
  queueArnOf,
  resolvedResources,
  simulate,
  tableArn,
  type AwsRequest,
  type FunctionRole,
  type TemplateSource,
} from '../infra/iam';
import { apiGatewayRequests, LOCAL_QUEUE, UNATTRIBUTED, type AwsCall } from './aws-call-log';

/** The stage the tests synthesize: a function `x` of the call log is `brigade-dev-x` in its template. */
export const functionName = (fn: string) => `brigade-dev-${fn}`;

/** Where the last check's report goes (read by the summary reporter). */
const iamReportFile = new URL('../../.local/iam-check.json', import.meta.url).pathname;

/** Every call recorded in the files of a folder (one file per process or worker). */
export function readCallLogs(dir: string, label = ''): AwsCall[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.startsWith(label) && f.endsWith('.json'))
    .flatMap((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as AwsCall[]);
}

/** A call the check asked about: observed in a test, or declared (made by AWS or CDK's code with the role). */
interface CheckedCall {
  function: string;
  action: string;
  resource: string;
  leadingKey?: string | undefined;
  count: number;
  declared?: string;
}

/** The concrete ARN of a recorded resource, by the function's template environment. */
function concreteResource(synth: TemplateSource, role: FunctionRole, resource: string): string {
  return resource
    .replace('{table}', tableArn(synth))
    .replace(/\{queue:(\w+)\}/, (_, env: string) =>
      role.environment[env]
        ? queueArnOf(role.environment[env])
        : `arn:aws:sqs:us-east-1:123456789012:(${env} is not in the environment)`,
    )
    .replace(
      /\{plan:(\w+)\}/,
      (_, tier: string) =>
        (JSON.parse(role.environment.USAGE_PLAN_IDS ?? '{}') as Record<string, string>)[tier] ??
        `(no ${tier} plan in USAGE_PLAN_IDS)`,
    );
}

/** What AWS does with each function's role that no test sees, and what CDK's functions do, from the template. */
function declaredCalls(synth: TemplateSource): CheckedCall[] {
  const roles = [...functionRoles(synth).values()];
  const byArn = new Map(roles.map((r) => [r.arn, r]));
  const out: CheckedCall[] = [];
  const declare = (role: FunctionRole | undefined, declared: string, action: string, resource: string) =>
    role && out.push({ function: role.functionName, action, resource, count: 0, declared });
  for (const role of roles) {
    const stream = `arn:aws:logs:us-east-1:123456789012:log-group:${role.logGroup}:log-stream:2026/01/01/[$LATEST]0`;
    for (const action of ['logs:CreateLogStream', 'logs:PutLogEvents'])
      declare(role, 'Lambda writes its logs', action, stream);
    if (role.tracing)
      for (const action of ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'])
        declare(role, 'active tracing', action, '*');
    for (const queue of role.consumedQueues) {
      for (const action of [
        'sqs:ReceiveMessage',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:ChangeMessageVisibility',
      ])
        declare(role, "Lambda's SQS poller", action, queue);
    }
  }
  // AwsCustomResource: the SDK calls the template spells out (onCreate/onUpdate/onDelete).
  for (const custom of resolvedResources(synth, 'Custom::AWS')) {
    const role = byArn.get(custom.ServiceToken as string);
    for (const phase of ['Create', 'Update', 'Delete']) {
      if (typeof custom[phase] !== 'string') continue;
      const call = JSON.parse(custom[phase]) as {
        service: string;
        action: string;
        parameters: Record<string, unknown>;
      };
      if (call.service !== 'APIGateway')
        throw new Error(`declared calls: a custom resource calls ${call.service}.${call.action}; add its IAM request`);
      for (const r of apiGatewayRequests(
        `${call.action.replace(/^./, (c) => c.toUpperCase())}Command`,
        call.parameters,
      )) {
        declare(role, `custom resource ${phase}`, r.action, r.resource.replace(/\{plan:([^}]+)\}/, '$1'));
      }
    }
  }
  // The triggers provider invokes the trigger's function.
  for (const trigger of resolvedResources(synth, 'Custom::Trigger')) {
    declare(
      byArn.get(trigger.ServiceToken as string),
      'trigger provider',
      'lambda:InvokeFunction',
      trigger.HandlerArn as string,
    );
  }
  return out;
}

export interface IamReport {
  calls: number;
  distinct: number;
  denied: string[];
  declared: number;
  /** Functions of the template. */
  functions: number;
  /** Functions with at least one observed call, by name. */
  exercised: string[];
  /** Functions without one (their declared calls may still have been checked). */
  missing: string[];
  unattributed: AwsCall[];
  /** Calls of the local stage's stand-in for the delivery queue (not a function's; not simulated). */
  localStandIn: number;
  /** Per role: IAM actions it allows that no observed call of any of its functions made. */
  unexercised: Record<string, string[]>;
  /** Per function: distinct actions observed. */
  observedActions: Record<string, string[]>;
}

const describeCall = (c: CheckedCall) =>
  `${c.function}: ${c.action} on ${c.resource}${c.leadingKey ? ` (leading key ${c.leadingKey})` : ''}${c.declared ? ` [declared: ${c.declared}]` : ''}`;

/** Asks every call of its function's role; answers the report (denials included, not thrown). */
export async function checkCalls(
  synth: TemplateSource,
  recorded: readonly AwsCall[],
  { declared = true } = {},
): Promise<IamReport> {
  const roles = functionRoles(synth);
  // The same call from several files is one distinct call.
  const merged = new Map<string, CheckedCall>();
  const unattributed: AwsCall[] = [];
  let localStandIn = 0;
  for (const call of recorded) {
    if (call.fn === UNATTRIBUTED) {
      unattributed.push(call);
      continue;
    }
    if (call.fn === LOCAL_QUEUE) {
      localStandIn += call.count;
      continue;
    }
    const fn = functionName(call.fn);
    const role = roles.get(fn);
    const resource = role ? concreteResource(synth, role, call.resource) : call.resource;
    const key = `${fn} ${call.action} ${resource} ${call.leadingKey ?? ''}`;
    const known = merged.get(key);
    if (known) known.count += call.count;
    else
      merged.set(key, { function: fn, action: call.action, resource, leadingKey: call.leadingKey, count: call.count });
  }
  const observed = [...merged.values()];
  const all = [...observed, ...(declared ? declaredCalls(synth) : [])];
  const denied: string[] = [];
  await Promise.all(
    all.map(async (c) => {
      const role = roles.get(c.function);
      if (!role) return void denied.push(`${describeCall(c)}: no such function in the template`);
      const request: AwsRequest = {
        action: c.action,
        resource: c.resource,
        ...(c.leadingKey ? { context: { 'dynamodb:LeadingKeys': [c.leadingKey] } } : {}),
      };
      const decision = await simulate(role, request);
      if (decision !== 'Allowed') denied.push(`${describeCall(c)}: ${decision}`);
    }),
  );

  const observedActions: Record<string, string[]> = {};
  for (const c of observed)
    observedActions[c.function] = [...new Set([...(observedActions[c.function] ?? []), c.action])].sort();
  const exercised = [...roles.keys()].filter((f) => observedActions[f]);
  // Per role: allowed actions (Allow statements; logs and X-Ray are Lambda's, declared above) never observed.
  const unexercised: Record<string, string[]> = {};
  const byRole = new Map<string, FunctionRole[]>();
  for (const role of roles.values()) byRole.set(role.roleId, [...(byRole.get(role.roleId) ?? []), role]);
  for (const [roleId, fns] of byRole) {
    const seen = new Set(fns.flatMap((f) => observedActions[f.functionName] ?? []));
    if (seen.size === 0) continue; // a role nothing exercised is listed under missing functions
    const queues = new Set(fns.flatMap((f) => f.consumedQueues));
    const allows = fns[0]!.statements
      .filter((s) => s.Effect === 'Allow' && !(queues.size && [s.Resource].flat().every((r) => queues.has(r))))
      .flatMap((s) => [s.Action].flat())
      .filter((a) => !/^(logs|xray):/.test(a));
    const never = [...new Set(allows)].filter((a) => !seen.has(a)).sort();
    if (never.length) unexercised[roleId] = never;
  }
  return {
    calls: observed.reduce((n, c) => n + c.count, 0),
    distinct: observed.length,
    denied: denied.sort(),
    declared: all.length - observed.length,
    functions: roles.size,
    exercised,
    missing: [...roles.keys()].filter((f) => !observedActions[f]),
    unattributed,
    localStandIn,
    unexercised,
    observedActions,
  };
}

/** Writes a check's report (its folder made if need be). */
export function writeIamReport(report: IamReport, file = iamReportFile): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(report, null, 1));
}
