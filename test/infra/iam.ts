/**
 * A small evaluator of the synthesized IAM statements, enough to ask what a function's role lets
 * it do with one DynamoDB item action: explicit Deny wins, then any Allow whose action, resource
 * and conditions match. Resources are told apart by what they name (`/index/gsi1` or the table);
 * the only condition it knows is `dynamodb:LeadingKeys` with `ForAllValues`/`ForAnyValue`
 * `StringLike`, and it refuses any other, so a statement it cannot read fails the test instead of
 * passing it.
 */
import type { Synthesized } from './synth';

export interface Statement {
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, string | string[]>>;
}

/** One item action on one partition of the table (`index` absent) or of an index. */
export interface ItemRequest {
  action: string;
  index?: string | undefined;
  partition: string;
}

export type Decision = 'allow' | 'deny' | 'none';

/** The request of an item action as infra/data-access.ts names it (`Query:gsi1`: a Query of gsi1). */
export const itemRequest = (action: string, partition: string): ItemRequest => {
  const [name, index] = action.split(':');
  return { action: name!, index, partition };
};

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const globs = new Map<string, RegExp>();
const like = (pattern: string, value: string) => {
  let glob = globs.get(pattern);
  if (!glob) globs.set(pattern, (glob = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 's')));
  return glob.test(value);
};

const actionMatches = (statement: Statement, action: string) =>
  list(statement.Action).some((a) => a === '*' || a === action || (a.endsWith('*') && action.startsWith(a.slice(0, -1))));

/** `index/<name>`, or `table` for the table itself, of each resource a statement names. */
const resourceKinds = (statement: Statement) =>
  list(statement.Resource).map((r) => {
    const text = JSON.stringify(r);
    if (text === '"*"') return '*';
    return /\/index\/(\w+)/.exec(text)?.[1] ? `index/${/\/index\/(\w+)/.exec(text)![1]}` : 'table';
  });

function conditionHolds(statement: Statement, partition: string): boolean {
  for (const [operator, keys] of Object.entries(statement.Condition ?? {})) {
    for (const [key, patterns] of Object.entries(keys)) {
      if (key !== 'dynamodb:LeadingKeys' || !['ForAllValues:StringLike', 'ForAnyValue:StringLike'].includes(operator)) {
        throw new Error(`the test's IAM evaluator does not know ${operator} ${key}`);
      }
      // One leading key per item action: ForAllValues and ForAnyValue both ask whether it matches.
      if (!list(patterns).some((p) => like(p, partition))) return false;
    }
  }
  return true;
}

export function decide(statements: readonly Statement[], request: ItemRequest): Decision {
  const resource = request.index ? `index/${request.index}` : 'table';
  const applies = (s: Statement) => actionMatches(s, `dynamodb:${request.action}`) && resourceKinds(s).some((k) => k === '*' || k === resource) && conditionHolds(s, request.partition);
  if (statements.some((s) => s.Effect === 'Deny' && applies(s))) return 'deny';
  return statements.some((s) => s.Effect === 'Allow' && applies(s)) ? 'allow' : 'none';
}

export const allowed = (statements: readonly Statement[], request: ItemRequest) => decide(statements, request) === 'allow';

/** Every action a role's statements allow on something (for "no apigateway:*" and the like). */
export const allowedActions = (statements: readonly Statement[]) => statements.filter((s) => s.Effect === 'Allow').flatMap((s) => list(s.Action));

export interface FunctionRole {
  /** The role's construct path in its stack. */
  roleId: string;
  description: string | undefined;
  statements: Statement[];
}

const rolesBySynth = new WeakMap<Synthesized, Map<string, FunctionRole>>();

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

/**
 * The statements of the customer-managed policies a role attaches (`ManagedPolicyArns`). In a nested
 * stack the policy arrives as a parameter: the parent's nested-stack resource says which of its
 * own resources that parameter names.
 */
function managedStatements(synth: Synthesized, stackIndex: number, arns: unknown[]): Statement[] {
  const stack = synth.stacks[stackIndex]!;
  const resources = synth.template(stack).toJSON().Resources as Resources;
  return arns.flatMap((arn) => {
    const ref = (arn as { Ref?: string }).Ref;
    if (!ref) return [];
    const own = resources[ref];
    if (own?.Type === 'AWS::IAM::ManagedPolicy') return (own.Properties.PolicyDocument as { Statement: Statement[] }).Statement;
    const parent = stack.nestedStackParent;
    if (!parent) return [];
    const parentResources = synth.template(parent).toJSON().Resources as Resources;
    const nested = Object.values(parentResources).find((r) => r.Type === 'AWS::CloudFormation::Stack' && (r.Properties.Parameters as Record<string, unknown> | undefined)?.[ref]);
    const passed = (nested?.Properties.Parameters as Record<string, unknown> | undefined)?.[ref];
    return passed ? managedStatements(synth, synth.stacks.indexOf(parent), [passed]) : [];
  });
}

/** The execution role of the function with this name, and every statement of the policies attached to it (inline and managed). */
export function roleOfFunction(synth: Synthesized, functionName: string): FunctionRole {
  let roles = rolesBySynth.get(synth);
  if (!roles) {
    roles = new Map();
    for (const [index, stack] of synth.stacks.entries()) {
      const resources = synth.template(stack).toJSON().Resources as Resources;
      const policies = Object.values(resources).filter((r) => r.Type === 'AWS::IAM::Policy');
      for (const fn of Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::Function' && typeof r.Properties.FunctionName === 'string')) {
        const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
        const statements = policies
          .filter((p) => (p.Properties.Roles as unknown[]).some((ref) => JSON.stringify(ref) === JSON.stringify({ Ref: roleId })))
          .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
        const managed = managedStatements(synth, index, (resources[roleId]?.Properties.ManagedPolicyArns as unknown[] | undefined) ?? []);
        roles.set(fn.Properties.FunctionName as string, {
          roleId: `${stack.node.path}/${roleId}`,
          description: resources[roleId]?.Properties.Description as string | undefined,
          statements: [...statements, ...managed],
        });
      }
    }
    rolesBySynth.set(synth, roles);
  }
  const role = roles.get(functionName);
  if (!role) throw new Error(`no function ${functionName}`);
  return role;
}
