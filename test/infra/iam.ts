/**
 * The synthesized roles as AWS would evaluate them, asked of a published IAM policy simulator
 * (`@cloud-copilot/iam-simulate`; AGPL-3.0, a dev dependency that no bundle includes).
 *
 * Every function of the templates (the parent stack and each nested stack) is found with its
 * execution role, and the role's policies are turned into plain policy JSON: CloudFormation's
 * intrinsics (Ref, Fn::GetAtt, Fn::Join, Fn::Select, Fn::Split, Fn::Sub, pseudo parameters) are
 * replaced by concrete values for one fake account, region and partition; a nested stack's
 * parameters by what its parent passes; a nested stack's outputs by their values. A role's
 * policies are its inline policies (AWS::IAM::Policy naming it), the customer-managed policies it
 * attaches (ManagedPolicyArns, in its stack or the parent's) and the AWS-managed ones, whose
 * documents are fixtures (test/infra/aws-managed-policies.ts). A request names the same concrete
 * ARNs (`tableArn`, `queueArnOf`, …), so the simulator sees what IAM would.
 *
 * This module decides nothing itself: `simulate` asks the simulator and reports its answer.
 */
import { runSimulation } from '@cloud-copilot/iam-simulate';
import { NestedStack, type Stack } from 'aws-cdk-lib';
import { assetOf, assetSources, readTemplate } from '../support/cloud-assembly';
import { awsManagedPolicies } from './aws-managed-policies';
import type { Synthesized } from './synth';

const ACCOUNT = '123456789012';
const REGION = 'us-east-1';
const PARTITION = 'aws';

export interface Statement {
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

export interface Policy {
  name: string;
  document: { Version: string; Statement: Statement[] };
}

/** A function of the templates, as deployed: its role's policies and its settings, all concrete. */
export interface FunctionRole {
  functionName: string;
  /** The role's construct path in its stack (`<stack path>/<logical id>`). */
  roleId: string;
  description: string | undefined;
  policies: Policy[];
  /** Every statement of those policies. */
  statements: Statement[];
  /** The function's environment, resolved (TABLE_NAME, DELIVERY_QUEUE_URL …). */
  environment: Record<string, string>;
  /** Its log group's name (LoggingConfig, else Lambda's default). */
  logGroup: string;
  /** X-Ray active tracing. */
  tracing: boolean;
  /** ARNs of the SQS queues Lambda polls for it (event source mappings). */
  consumedQueues: string[];
  /** True for functions CDK provides (custom resources, triggers), which carry no FunctionName of their own. */
  cdkProvided: boolean;
  /** The function's ARN (what a custom resource's ServiceToken names). */
  arn: string;
}

type Resource = { Type: string; Properties?: Record<string, unknown> };
type Template = {
  Resources: Record<string, Resource>;
  Parameters?: Record<string, unknown>;
  Outputs?: Record<string, { Value: unknown }>;
};

/** A stack's template and how its parameters and nested stacks' outputs resolve. */
interface Scope {
  /** The stack's construct path (`Brigade-dev`, `Brigade-dev/Bookings`): names its roles and CDK's functions. */
  path: string;
  stackName: string;
  template: Template;
  parameters: Record<string, unknown>;
  /** Logical id of a nested stack's resource in this template → that nested stack's scope. */
  nested: Map<string, Scope>;
}

const arn = (service: string, rest: string, region = REGION, account = ACCOUNT) =>
  `arn:${PARTITION}:${service}:${region}:${account}:${rest}`;
const queueUrl = (name: string) => `https://sqs.${REGION}.amazonaws.com/${ACCOUNT}/${name}`;
/** The ARN IAM authorizes an SQS request on, from the queue's URL. */
export const queueArnOf = (url: string) => arn('sqs', new URL(url).pathname.split('/').pop()!);

/** The name a resource gets when its template does not name it (CloudFormation makes one up; any fixed value will do). */
const physicalName = (scope: Scope, logicalId: string, resource: Resource, nameProperty: string) => {
  const name = resource.Properties?.[nameProperty];
  return name === undefined ? logicalId.toLowerCase() : String(resolve(scope, name));
};

function refOf(scope: Scope, logicalId: string): unknown {
  const pseudo: Record<string, string> = {
    'AWS::AccountId': ACCOUNT,
    'AWS::Region': REGION,
    'AWS::Partition': PARTITION,
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': scope.stackName,
    // A stack's id ends with the UUID CloudFormation draws when it creates the stack (log group names take part of it).
    'AWS::StackId': `arn:${PARTITION}:cloudformation:${REGION}:${ACCOUNT}:stack/${scope.stackName}/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d`,
    'AWS::NoValue': '',
  };
  if (logicalId in pseudo) return pseudo[logicalId];
  if (logicalId in scope.parameters) return scope.parameters[logicalId];
  const resource = scope.template.Resources[logicalId];
  if (!resource) throw new Error(`${scope.path}: Ref to unknown ${logicalId}`);
  switch (resource.Type) {
    case 'AWS::DynamoDB::Table':
      return physicalName(scope, logicalId, resource, 'TableName');
    case 'AWS::SQS::Queue':
      return queueUrl(physicalName(scope, logicalId, resource, 'QueueName'));
    case 'AWS::Lambda::Function':
      return physicalName(scope, logicalId, resource, 'FunctionName');
    case 'AWS::Logs::LogGroup':
      return physicalName(scope, logicalId, resource, 'LogGroupName');
    case 'AWS::Lambda::Version':
      return arn('lambda', `function:${String(resolve(scope, resource.Properties!.FunctionName))}:1`);
    case 'AWS::Events::EventBus':
      return physicalName(scope, logicalId, resource, 'Name');
    case 'AWS::IAM::Role':
      return physicalName(scope, logicalId, resource, 'RoleName');
    case 'AWS::IAM::ManagedPolicy':
      return `arn:${PARTITION}:iam::${ACCOUNT}:policy/${physicalName(scope, logicalId, resource, 'ManagedPolicyName')}`;
    case 'AWS::SNS::Topic':
      return arn('sns', physicalName(scope, logicalId, resource, 'TopicName'));
    default:
      // API ids (RestApi, UsagePlan, ApiKey, Deployment …): an id made of the logical id.
      return logicalId.toLowerCase();
  }
}

function attributeOf(scope: Scope, logicalId: string, attribute: string): unknown {
  const nested = scope.nested.get(logicalId);
  if (nested && attribute.startsWith('Outputs.')) {
    const output = nested.template.Outputs?.[attribute.slice('Outputs.'.length)];
    if (!output) throw new Error(`${nested.path}: no output ${attribute}`);
    return resolve(nested, output.Value);
  }
  const resource = scope.template.Resources[logicalId];
  if (!resource) throw new Error(`${scope.path}: GetAtt of unknown ${logicalId}`);
  const name = String(refOf(scope, logicalId));
  const key = `${resource.Type}.${attribute}`;
  switch (key) {
    case 'AWS::DynamoDB::Table.Arn':
      return arn('dynamodb', `table/${name}`);
    case 'AWS::DynamoDB::Table.StreamArn':
      return arn('dynamodb', `table/${name}/stream/2026-01-01T00:00:00.000`);
    case 'AWS::SQS::Queue.Arn':
      return queueArnOf(name);
    case 'AWS::SQS::Queue.QueueName':
      return new URL(name).pathname.split('/').pop();
    case 'AWS::SQS::Queue.QueueUrl':
      return name;
    case 'AWS::Lambda::Function.Arn':
      return arn('lambda', `function:${name}`);
    case 'AWS::Logs::LogGroup.Arn':
      return arn('logs', `log-group:${name}:*`);
    case 'AWS::Events::EventBus.Arn':
      return arn('events', `event-bus/${name}`);
    case 'AWS::IAM::Role.Arn':
      return `arn:${PARTITION}:iam::${ACCOUNT}:role/${name}`;
    case 'AWS::ApiGateway::RestApi.RootResourceId':
      return `${name}root`;
    default:
      return `${logicalId.toLowerCase()}-${attribute.toLowerCase()}`;
  }
}

/** A template value with every intrinsic replaced by its concrete value. */
function resolve(scope: Scope, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => resolve(scope, v));
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length === 1) {
    const [fn, arg] = entries[0]! as [string, unknown];
    switch (fn) {
      case 'Ref':
        return refOf(scope, arg as string);
      case 'Fn::GetAtt': {
        const [id, attribute] = Array.isArray(arg) ? (arg as string[]) : (arg as string).split(/\.(.*)/s);
        return attributeOf(scope, id!, attribute!);
      }
      case 'Fn::Join': {
        const [separator, parts] = arg as [string, unknown[]];
        return (resolve(scope, parts) as unknown[]).flat().join(separator);
      }
      case 'Fn::Select': {
        const [index, list] = arg as [unknown, unknown];
        return (resolve(scope, list) as unknown[])[Number(resolve(scope, index))];
      }
      case 'Fn::Split': {
        const [separator, text] = arg as [string, unknown];
        return String(resolve(scope, text)).split(separator);
      }
      case 'Fn::Sub': {
        const [text, vars] = (Array.isArray(arg) ? arg : [arg, {}]) as [string, Record<string, unknown>];
        return text.replace(/\$\{([^}]+)\}/g, (_, name: string) =>
          String(
            name in vars
              ? resolve(scope, vars[name])
              : name.includes('.')
                ? attributeOf(scope, ...(name.split(/\.(.*)/s) as [string, string]))
                : refOf(scope, name),
          ),
        );
      }
    }
    if (fn.startsWith('Fn::')) throw new Error(`${scope.path}: the role resolver does not know ${fn}`);
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, resolve(scope, v)]));
}

/**
 * Where the templates come from: a synthesis in this process (test/infra/synth.ts), or a cloud
 * assembly on disk (`cdk synth -o <dir>`: the parent's `<stackName>.template.json` and the nested
 * templates it names through its `*.assets.json`), as the bundle harness reads it.
 */
export type TemplateSource = Synthesized | CloudAssemblyTemplates;
interface CloudAssemblyTemplates {
  dir: string;
  stackName: string;
}

const isAssembly = (source: TemplateSource): source is CloudAssemblyTemplates => 'dir' in source;

/** A nested stack's parameters, resolved on first use: a parameter may name another nested stack's output. */
function passParameters(parentScope: Scope, logicalId: string, scope: Scope): void {
  parentScope.nested.set(logicalId, scope);
  const passed = (parentScope.template.Resources[logicalId]!.Properties?.Parameters ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(passed))
    Object.defineProperty(scope.parameters, name, { enumerable: true, get: () => resolve(parentScope, value) });
}

/** The scopes of a synthesis in this process: the parent stack and every nested stack. */
function synthScopes(synth: Synthesized): Scope[] {
  const scopes = new Map<Stack, Scope>();
  const scopeOf = (stack: Stack): Scope => {
    const known = scopes.get(stack);
    if (known) return known;
    const template = synth.template(stack).toJSON() as Template;
    const scope: Scope = {
      path: stack.node.path,
      stackName: stack.stackName,
      template,
      parameters: {},
      nested: new Map(),
    };
    scopes.set(stack, scope);
    const parent = stack.nestedStackParent;
    if (parent && NestedStack.isNestedStack(stack))
      passParameters(scopeOf(parent), parent.getLogicalId(stack.nestedStackResource!), scope);
    return scope;
  };
  for (const stack of synth.stacks) scopeOf(stack);
  return [...scopes.values()];
}

/**
 * The scopes of a cloud assembly on disk. A nested stack's path is its construct's (the nested
 * stack resource's `aws:cdk:path` without `.NestedStack/…`), as a synthesis in this process names it.
 */
function assemblyScopes({ dir, stackName }: CloudAssemblyTemplates): Scope[] {
  const assets = assetSources(dir);
  const read = (file: string) => readTemplate<Template>(dir, file);
  const out: Scope[] = [];
  const visit = (scope: Scope) => {
    out.push(scope);
    for (const [logicalId, r] of Object.entries(scope.template.Resources)) {
      if (r.Type !== 'AWS::CloudFormation::Stack') continue;
      const file = assetOf(assets, r.Properties?.TemplateURL, `${dir}: the template of nested stack ${logicalId}`);
      const cdkPath = String(
        (r as { Metadata?: Record<string, unknown> }).Metadata?.['aws:cdk:path'] ?? `${scope.path}/${logicalId}`,
      );
      const nested: Scope = {
        path: cdkPath.replace(/\.NestedStack\/.*$/, ''),
        stackName: `${scope.stackName}-${logicalId}`,
        template: read(file),
        parameters: {},
        nested: new Map(),
      };
      passParameters(scope, logicalId, nested);
      visit(nested);
    }
  };
  visit({
    path: stackName,
    stackName,
    template: read(`${stackName}.template.json`),
    parameters: {},
    nested: new Map(),
  });
  return out;
}

const scopesBySource = new WeakMap<TemplateSource, Scope[]>();
/** The scopes of the parent stack (first) and every nested stack, parameters resolved through the parents. */
function scopesOf(source: TemplateSource): Scope[] {
  const known = scopesBySource.get(source);
  if (known) return known;
  const scopes = isAssembly(source) ? assemblyScopes(source) : synthScopes(source);
  scopesBySource.set(source, scopes);
  return scopes;
}

const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** A customer-managed policy by its resolved ARN, in any stack. */
function managedPolicies(scopes: readonly Scope[]): Map<string, Policy> {
  const out = new Map<string, Policy>();
  for (const scope of scopes) {
    for (const [id, r] of Object.entries(scope.template.Resources)) {
      if (r.Type !== 'AWS::IAM::ManagedPolicy') continue;
      out.set(refOf(scope, id) as string, {
        name: `${scope.path}/${id}`,
        document: resolve(scope, r.Properties!.PolicyDocument) as Policy['document'],
      });
    }
  }
  return out;
}

const rolesBySynth = new WeakMap<TemplateSource, Map<string, FunctionRole>>();

/** Every function of the templates by name (CDK's own functions by their construct path), with its role resolved. */
export function functionRoles(synth: TemplateSource): Map<string, FunctionRole> {
  const known = rolesBySynth.get(synth);
  if (known) return known;
  const scopes = scopesOf(synth);
  const managed = managedPolicies(scopes);
  const roles = new Map<string, FunctionRole>();
  // Functions sharing a role share its resolved policies (and so the simulator's answers for them).
  const policiesByRole = new Map<string, Policy[]>();
  for (const scope of scopes) {
    const resources = scope.template.Resources;
    const mappings = Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping');
    for (const [fnId, fn] of Object.entries(resources)) {
      if (fn.Type !== 'AWS::Lambda::Function') continue;
      const props = fn.Properties!;
      const roleId = (props.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const role = resources[roleId]!;
      const inline = Object.entries(resources)
        .filter(
          ([, p]) =>
            p.Type === 'AWS::IAM::Policy' &&
            list(p.Properties!.Roles as unknown[]).some(
              (ref) => JSON.stringify(ref) === JSON.stringify({ Ref: roleId }),
            ),
        )
        .map(
          ([id, p]): Policy => ({
            name: id,
            document: resolve(scope, p.Properties!.PolicyDocument) as Policy['document'],
          }),
        );
      // A role's own inline policies (CDK's custom-resource providers write theirs on the role).
      const onRole = list(
        role.Properties?.Policies as { PolicyName: string; PolicyDocument: unknown }[] | undefined,
      ).map(
        (p): Policy => ({
          name: `${roleId}/${p.PolicyName}`,
          document: resolve(scope, p.PolicyDocument) as Policy['document'],
        }),
      );
      const attached = (resolve(scope, role.Properties?.ManagedPolicyArns ?? []) as string[]).map((policyArn) => {
        const policy =
          managed.get(policyArn) ?? awsManagedPolicies[policyArn.replace(/^arn:aws:iam::aws:policy\//, '')];
        if (!policy)
          throw new Error(
            `${scope.path}/${roleId}: no document for the managed policy ${policyArn} (add it to test/infra/aws-managed-policies.ts)`,
          );
        return policy;
      });
      const cdkProvided = typeof props.FunctionName !== 'string';
      const functionName = cdkProvided ? `${scope.path}/${fnId}` : (props.FunctionName as string);
      const physical = String(refOf(scope, fnId));
      const logging = resolve(scope, props.LoggingConfig ?? {}) as { LogGroup?: string };
      const rolePath = `${scope.path}/${roleId}`;
      const policies =
        policiesByRole.get(rolePath) ??
        policiesByRole.set(rolePath, [...inline, ...onRole, ...attached]).get(rolePath)!;
      roles.set(functionName, {
        functionName,
        roleId: rolePath,
        description: role.Properties?.Description as string | undefined,
        policies,
        statements: policies.flatMap((p) => list(p.document.Statement)),
        environment: resolve(
          scope,
          (props.Environment as { Variables?: unknown } | undefined)?.Variables ?? {},
        ) as Record<string, string>,
        logGroup: logging.LogGroup ?? `/aws/lambda/${physical}`,
        tracing: (props.TracingConfig as { Mode?: string } | undefined)?.Mode === 'Active',
        consumedQueues: mappings
          .filter((m) => JSON.stringify(m.Properties!.FunctionName) === JSON.stringify({ Ref: fnId }))
          .map((m) => resolve(scope, m.Properties!.EventSourceArn) as string)
          .filter((a) => a.startsWith(`arn:${PARTITION}:sqs:`)),
        cdkProvided,
        arn: arn('lambda', `function:${physical}`),
      });
    }
  }
  rolesBySynth.set(synth, roles);
  return roles;
}

/** The function with this name and its resolved role. */
export function roleOfFunction(synth: TemplateSource, functionName: string): FunctionRole {
  const role = functionRoles(synth).get(functionName);
  if (!role) throw new Error(`no function ${functionName} in the template`);
  return role;
}

/** The resources of a type in every stack, properties resolved (custom resources, say). */
export function resolvedResources(synth: TemplateSource, type: string): Record<string, unknown>[] {
  return scopesOf(synth).flatMap((scope) =>
    Object.values(scope.template.Resources)
      .filter((r) => r.Type === type)
      .map((r) => resolve(scope, r.Properties ?? {}) as Record<string, unknown>),
  );
}

/** The table's ARN as the roles name it (the template's one table). */
export function tableArn(synth: TemplateSource): string {
  const known = tableArns.get(synth);
  if (known) return known;
  const scope = scopesOf(synth)[0]!;
  const [id] = Object.entries(scope.template.Resources).find(([, r]) => r.Type === 'AWS::DynamoDB::Table')!;
  const value = attributeOf(scope, id, 'Arn') as string;
  tableArns.set(synth, value);
  return value;
}
const tableArns = new WeakMap<TemplateSource, string>();

/** One request to AWS, as IAM authorizes it. */
export interface AwsRequest {
  /** `dynamodb:GetItem`, `sqs:SendMessage`, `apigateway:POST` … */
  action: string;
  resource: string;
  context?: Record<string, string | string[]>;
}

export type Decision = 'Allowed' | 'ExplicitlyDenied' | 'ImplicitlyDenied';

/** Every request an AWS SDK client makes is signed and sent over TLS. */
const sdkContext = { 'aws:SecureTransport': 'true' };

const decisions = new WeakMap<Policy[], Map<string, Promise<Decision>>>();

/**
 * What IAM decides for a request by this role (identity policies; no resource policy, SCP or
 * boundary applies in Brigade's account). Distinct requests are simulated once per role. A
 * request the simulator cannot evaluate (an unknown action, a resource of the wrong type, a
 * policy it cannot read) throws: it is a defect of the request or the template, not a denial.
 */
export function simulate(role: FunctionRole, request: AwsRequest): Promise<Decision> {
  let cache = decisions.get(role.policies);
  if (!cache) decisions.set(role.policies, (cache = new Map()));
  const key = JSON.stringify(request);
  let decision = cache.get(key);
  if (!decision) {
    decision = runSimulation(
      {
        request: {
          principal: `arn:${PARTITION}:sts::${ACCOUNT}:assumed-role/${role.roleId.split('/').pop()}/${role.functionName.split('/').pop()}`,
          action: request.action,
          resource: { resource: request.resource, accountId: ACCOUNT },
          contextVariables: { ...sdkContext, ...request.context },
        },
        identityPolicies: role.policies.map((p) => ({ name: p.name, policy: p.document })),
        serviceControlPolicies: [],
        resourceControlPolicies: [],
      },
      {},
    ).then((result) => {
      if (result.resultType === 'error')
        throw new Error(
          `the simulator cannot evaluate ${request.action} on ${request.resource} for ${role.functionName}: ${JSON.stringify(result.errors)}`,
        );
      return result.overallResult as Decision;
    });
    cache.set(key, decision);
  }
  return decision;
}

/** Every action a role's statements allow on something (for "no apigateway:*" and the like): a listing, not a decision. */
export const allowedActions = (statements: readonly Statement[]) =>
  statements.filter((s) => s.Effect === 'Allow').flatMap((s) => list(s.Action));

/** One item action on one partition of the table (`index` absent) or of an index, as data-access.ts names it. */
export interface ItemRequest {
  action: string;
  index?: string | undefined;
  partition: string;
}

/** `Query:gsi1` (infra/data-access.ts's name of a Query of gsi1) on a partition. */
export const itemRequest = (action: string, partition: string): ItemRequest => {
  const [name, index] = action.split(':');
  return { action: name!, index, partition };
};

/** The request IAM sees for an item action: the table's or the index's ARN, the partition as the leading key. */
const dynamoRequest = (table: string, { action, index, partition }: ItemRequest): AwsRequest => ({
  action: `dynamodb:${action}`,
  resource: index ? `${table}/index/${index}` : table,
  context: { 'dynamodb:LeadingKeys': [partition] },
});

/** The simulator's answer to an item action by a role of this synthesis: `allow`, `deny` (explicitly) or `none`. */
export async function decideItem(
  synth: TemplateSource,
  role: FunctionRole,
  request: ItemRequest,
): Promise<'allow' | 'deny' | 'none'> {
  const decision = await simulate(role, dynamoRequest(tableArn(synth), request));
  return decision === 'Allowed' ? 'allow' : decision === 'ExplicitlyDenied' ? 'deny' : 'none';
}
