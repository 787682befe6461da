/**
 * The built-in permission catalog is seeded at deploy (infra/permission-catalog.ts,
 * docs/onboarding.md): a trigger runs functions/catalog/seed.ts after the table exists, again
 * whenever the function changes, and the function's role may touch the catalog and the id
 * counters only.
 */
import type { Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { functionGrants } from '../../infra/data-access';
import { allowedActions, decideItem, roleOfFunction, type ItemRequest } from './iam';
import { synthesize, type TemplateResource } from './synth';

type Resource = TemplateResource;

const synth = synthesize();
const resourcesOf = (stack: Stack) =>
  Object.entries(synth.template(stack).toJSON().Resources as Record<string, Resource>);
const parent = resourcesOf(synth.stack);
/** Its own nested stack, so the parent keeps room to grow. */
const seedStack = synth.stacks.find((s) => s.node.id === 'PermissionCatalogSeed')!;
const resources = resourcesOf(seedStack);
const seedFunction = resources.find(
  ([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties.FunctionName === 'brigade-dev-catalog-seed',
);
const triggers = resources.filter(([, r]) => r.Type === 'Custom::Trigger');
const tableId = parent.find(([, r]) => r.Type === 'AWS::DynamoDB::Table')![0];
/** The nested stack's resource in the parent. */
const seedStackResource = parent.find(
  ([id, r]) => r.Type === 'AWS::CloudFormation::Stack' && id.startsWith('PermissionCatalogSeed'),
)![1];

describe('seeding the permission catalog at deploy', () => {
  it('runs functions/catalog/seed.ts through a trigger, after the table, again whenever the function changes', () => {
    expect(seedFunction).toBeDefined();
    const [fnId, fn] = seedFunction!;
    // The table's name comes in as a parameter of the nested stack: the parent's table.
    const tableParameter = (fn.Properties.Environment.Variables.TABLE_NAME as { Ref: string }).Ref;
    expect(seedStackResource.Properties.Parameters[tableParameter]).toEqual({ Ref: tableId });
    expect(triggers).toHaveLength(1);
    const [, trigger] = triggers[0]!;
    // Its handler is the function's published version: a new bundle (a changed catalog) is a new version, so the trigger runs again.
    const versionId = JSON.stringify(trigger.Properties.HandlerArn).match(/"Ref":"([^"]+)"/)?.[1];
    expect(versionId).toBeDefined();
    const version = resources.find(([id]) => id === versionId)![1];
    expect(version.Type).toBe('AWS::Lambda::Version');
    expect(version.Properties.FunctionName).toEqual({ Ref: fnId });
    expect(trigger.Properties).toMatchObject({ InvocationType: 'RequestResponse', ExecuteOnHandlerChange: true });
    // It waits for the table: CloudFormation creates the table before the stack that holds the trigger.
    expect(seedStackResource.DependsOn ?? []).toContain(tableId);
  });

  it('gives the function a role of its own that may read the catalog (whole, and a changed built-in by id), write its items and take ids, and nothing else', async () => {
    const role = roleOfFunction(synth, 'brigade-dev-catalog-seed');
    const decide = (request: ItemRequest) => decideItem(synth, role, request);
    expect(functionGrants.catalogSeeder).toEqual({
      permissionCatalog: ['GetItem', 'Query', 'PutItem'],
      idSequences: ['UpdateItem'],
    });
    expect(await decide({ action: 'Query', partition: 'PERMISSIONS' })).toBe('allow');
    expect(await decide({ action: 'GetItem', partition: 'PERMISSIONS' })).toBe('allow');
    expect(await decide({ action: 'PutItem', partition: 'PERMISSIONS' })).toBe('allow');
    expect(await decide({ action: 'UpdateItem', partition: 'SEQ' })).toBe('allow');
    for (const action of ['DeleteItem', 'UpdateItem', 'BatchGetItem'] as const)
      expect(await decide({ action, partition: 'PERMISSIONS' }), action).toBe('none');
    for (const partition of ['C#7', 'COMPANIES', 'RATE#key:abc'])
      expect(await decide({ action: 'PutItem', partition }), partition).toBe('none');
    expect(await decide({ action: 'GetItem', partition: 'KEY#abcdefghijkl' })).toBe('deny');
    expect(await decide({ action: 'GetItem', partition: 'C#7#WHSUB#4f1c' })).toBe('deny');
    expect(allowedActions(role.statements).filter((a) => !a.startsWith('dynamodb:') && !a.startsWith('logs:'))).toEqual(
      [],
    );
  });
});
