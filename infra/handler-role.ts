/**
 * Execution roles that may touch only the item families they are granted (data-access.ts). The
 * HTTP functions get one role per area, one for an area's public operations and one where an area
 * gives a permission a role of its own (access.md, docs/infra.md): their logs, their families,
 * and, for the API-key functions only, the merchants' usage keys (a managed policy of the parent stack).
 */
import { ArnFormat, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import {
  deniedOn,
  families,
  guardedFamilies,
  indexOf,
  type FamilyName,
  type Grants,
  type ItemAction,
  type RoleAccess,
} from './data-access';
import type { BrigadeTable } from './table';

/** The IAM actions of some item actions (`Query:gsi1` is a `dynamodb:Query`). */
const dynamodb = (actions: readonly ItemAction[]) => [
  ...new Set(actions.map((a) => `dynamodb:${a.replace(/:.*/, '')}`)),
];
const partitionsOf = (names: readonly FamilyName[]) => names.flatMap((f) => families[f].partitions);

/** One statement per distinct value of `key` among the families, each naming those families' partitions. */
function grouped(
  entries: readonly [FamilyName, readonly ItemAction[]][],
  key: (actions: readonly ItemAction[]) => string | undefined,
  statement: (key: string, partitions: string[]) => iam.PolicyStatement,
) {
  const byKey = new Map<string, FamilyName[]>();
  for (const [family, actions] of entries) {
    const k = key(actions);
    if (k) byKey.set(k, [...(byKey.get(k) ?? []), family]);
  }
  return [...byKey].map(([k, names]) => statement(k, partitionsOf(names)));
}

const tableActions = (actions: readonly ItemAction[]) => actions.filter((a) => indexOf(a) === undefined);
const indexes = (actions: readonly ItemAction[]) => actions.map(indexOf).filter((i) => i !== undefined);

/**
 * The statements of some grants. Allows: per distinct set of table actions, one on the table; per
 * distinct set of queried indexes, one Query on those indexes; each limited to its families'
 * partitions (every leading key of the request must match one). Denies: per guarded family, what
 * the grants do not allow on it, whatever broader pattern would.
 */
function dataStatements(table: BrigadeTable, grants: Grants): iam.PolicyStatement[] {
  const entries = Object.entries(grants) as [FamilyName, readonly ItemAction[]][];
  const only = (partitions: string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': partitions } });
  const any = (partitions: string[]) => ({ 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': partitions } });
  const onTable = (actions: readonly ItemAction[], conditions: Record<string, unknown>, effect = iam.Effect.ALLOW) =>
    new iam.PolicyStatement({ effect, actions: dynamodb(actions), resources: [table.tableArn], conditions });
  const onIndexes = (names: readonly string[], conditions: Record<string, unknown>, effect = iam.Effect.ALLOW) =>
    new iam.PolicyStatement({
      effect,
      actions: ['dynamodb:Query'],
      resources: names.map((name) => table.indexArn(name)),
      conditions,
    });

  const allows = [
    ...grouped(
      entries,
      (actions) => tableActions(actions).join(',') || undefined,
      (k, partitions) => onTable(k.split(',') as ItemAction[], only(partitions)),
    ),
    ...grouped(
      entries,
      (actions) => indexes(actions).join(',') || undefined,
      (k, partitions) => onIndexes(k.split(','), only(partitions)),
    ),
  ];
  const denies = guardedFamilies.flatMap((family) => {
    const denied = deniedOn(grants, family);
    const partitions = partitionsOf([family]);
    return [
      ...(tableActions(denied).length ? [onTable(tableActions(denied), any(partitions), iam.Effect.DENY)] : []),
      ...(indexes(denied).length ? [onIndexes(indexes(denied), any(partitions), iam.Effect.DENY)] : []),
    ];
  });
  return [...allows, ...denies];
}

/** Lets a role touch the granted families of the table, and nothing else of it. */
export function grantData(role: iam.IRole, table: BrigadeTable, grants: Grants): void {
  for (const statement of dataStatements(table, grants)) role.addToPrincipalPolicy(statement);
}

export interface HandlerRoleProps {
  table: BrigadeTable;
  access: RoleAccess;
  /** Handlers' log groups all start with this (`/aws/lambda/brigade-dev-`). */
  logGroupPrefix: string;
  /** For the roles that manage merchants' usage keys (UsageTiers.manageKeysPolicy). */
  manageKeysPolicy: iam.IManagedPolicy;
}

/** The role of a group of HTTP functions (data-access.ts `accessOf`). */
export class HandlerRole extends iam.Role {
  constructor(scope: Construct, id: string, { table, access, logGroupPrefix, manageKeysPolicy }: HandlerRoleProps) {
    super(scope, id, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Brigade HTTP handlers: ${access.name}`,
    });
    grantData(this, table, access.grants);

    const logGroups = Stack.of(this).formatArn({
      service: 'logs',
      resource: 'log-group',
      resourceName: `${logGroupPrefix}*:*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    this.addToPolicy(
      new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroups] }),
    );
    Validations.of(this).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:${logGroupPrefix}*:*]`,
      reason:
        "Function names carry the stage, not the area; naming each log group would grow the inline policy with every operation, so the grant covers this stage's handler log-group prefix (streams are named by Lambda).",
    });
    // A merchant's usage key: the policy beside the tier plans (usage-tiers.ts).
    if (access.manageUsageKeys) this.addManagedPolicy(manageKeysPolicy);
  }
}
