/**
 * Least privilege per area (infra/data-access.ts): each operation's function runs with the role
 * its row gives it, and that role allows exactly the granted item actions on the granted item
 * families, asked of the synthesized roles through a published IAM policy simulator (iam.ts). Then the
 * threats by name: API keys' lookups and webhook secrets are read only by the functions that need
 * them, only the API-key functions manage usage keys, public and fallback functions can do only
 * what their operations do. `test/api-coverage/iam.test.ts` checks the other direction: every call
 * the handlers really make is allowed.
 */
import { describe, expect, it } from 'vitest';
import {
  accessOf,
  fallbackAccess,
  families,
  functionGrants,
  itemActions,
  tenant,
  type FamilyName,
  type Grants,
  type ItemAction,
} from '../../infra/data-access';
import { routes, type Route } from '../../shared/routes';
import {
  allowedActions,
  decideItem,
  functionRoles,
  itemRequest,
  queueArnOf,
  roleOfFunction,
  simulate,
  type FunctionRole,
  type ItemRequest,
  type Statement,
} from './iam';
import { synthesize, syntheticRoutes, type Synthesized, type TemplateResource } from './synth';

/** A partition of each family, as a request would name it (`C#*#WHSUB#*` → `C#7#WHSUB#7`). */
const sample = (family: FamilyName) => families[family].partitions[0]!.replace(/\*/g, '7');
const familyNames = Object.keys(families) as FamilyName[];

/** Whether each action on a partition of each family is allowed, as `family: [actions]` (the shape of Grants). */
async function effectiveGrants(synth: Synthesized, role: FunctionRole): Promise<Grants> {
  const out: Partial<Record<FamilyName, ItemAction[]>> = {};
  for (const family of familyNames) {
    const allowedOn = await Promise.all(
      itemActions.map(async (action) => {
        const each = await Promise.all(
          families[family].partitions.map((p) => decideItem(synth, role, itemRequest(action, p.replace(/\*/g, '7')))),
        );
        return each.every((d) => d === 'allow');
      }),
    );
    const actions = itemActions.filter((_, i) => allowedOn[i]);
    if (actions.length) out[family] = actions;
  }
  return out;
}

/**
 * What a role's grants mean once patterns overlap: `company` (`C#*`) also covers webhook partitions
 * unless they are denied, which the guarded families are to every role not granted them.
 */
const sorted = (grants: Grants) =>
  Object.fromEntries(
    Object.entries(grants)
      .map(([f, a]) => [f, [...a].sort()])
      .sort(),
  );

/** The operations that mint merchant keys: the api-keys area's, and the operators' first key of a company. */
const apiKeysManage = (r: Route) => r.permission === 'api_keys.manage' || r.operationId === 'createCompanyApiKey';
const isPublic = (r: Route) => r.permission === null;

describe.each([
  ['the route table', routes as readonly Route[]],
  ['90 synthetic routes over 10 areas', syntheticRoutes()],
])('%s', (_, table) => {
  const synth = synthesize({ routes: table });
  const roleOf = (route: Route) => roleOfFunction(synth, `brigade-dev-${route.operationId}`);
  const decide = (role: FunctionRole, request: ItemRequest) => decideItem(synth, role, request);
  const allowed = async (role: FunctionRole, request: ItemRequest) => (await decide(role, request)) === 'allow';

  it("gives each operation's function the role its row names, one role per area, public part and singled-out permission", () => {
    const byRole = new Map<string, Set<string>>();
    for (const route of table) {
      const role = roleOf(route);
      expect(role.description, route.operationId).toBe(`Brigade HTTP handlers: ${accessOf(route).name}`);
      byRole.set(role.roleId, new Set([...(byRole.get(role.roleId) ?? []), accessOf(route).name]));
    }
    // One role per access name, never shared between two.
    expect([...byRole.values()].every((names) => names.size === 1)).toBe(true);
    expect(byRole.size).toBe(new Set(table.map((r) => accessOf(r).name)).size);
  });

  it('allows each role exactly its grants, family by family, action by action', async () => {
    for (const route of table) {
      expect(sorted(await effectiveGrants(synth, roleOf(route))), route.operationId).toEqual(
        sorted(accessOf(route).grants),
      );
    }
    expect(sorted(await effectiveGrants(synth, roleOfFunction(synth, 'brigade-dev-fallback')))).toEqual(
      sorted(fallbackAccess.grants),
    );
  });

  it('never allows a DynamoDB action without naming the partitions it may touch', () => {
    for (const stack of synth.stacks) {
      for (const policy of Object.values(synth.template(stack).findResources('AWS::IAM::Policy'))) {
        for (const s of policy.Properties.PolicyDocument.Statement as Statement[]) {
          if (s.Effect !== 'Allow' || ![s.Action].flat().some((a) => a.startsWith('dynamodb:'))) continue;
          if (
            [s.Action]
              .flat()
              .every((a) => /^dynamodb:(DescribeStream|GetRecords|GetShardIterator|ListStreams)$/.test(a))
          )
            continue; // the Pipe reads the stream
          expect(
            s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'],
            `${stack.node.path}: ${JSON.stringify(s.Action)}`,
          ).toBeDefined();
          expect(JSON.stringify(s.Resource)).not.toContain('*');
        }
      }
    }
  });

  it('lets only the API-key functions manage usage keys (apigateway:*)', () => {
    for (const route of table) {
      const gateway = allowedActions(roleOf(route).statements).filter((a) => a.startsWith('apigateway:'));
      expect(gateway, route.operationId).toEqual(apiKeysManage(route) ? ['apigateway:POST', 'apigateway:DELETE'] : []);
    }
  });

  it('lets no operation read an API key lookup but the public ones (which verify a presented credential), and only API-key functions write one', async () => {
    const key = sample('apiKeyLookups');
    for (const route of table) {
      const role = roleOf(route);
      expect(await allowed(role, { action: 'GetItem', partition: key }), route.operationId).toBe(isPublic(route));
      for (const action of ['Query', 'BatchGetItem', 'DeleteItem'] as const)
        expect(await decide(role, { action, partition: key }), `${route.operationId} ${action}`).toBe('deny');
      expect(await allowed(role, { action: 'PutItem', partition: key }), `${route.operationId} PutItem`).toBe(
        apiKeysManage(route),
      );
      // Changing and revoking a key update its lookup; the operators' key for a company only makes one.
      expect(await allowed(role, { action: 'UpdateItem', partition: key }), `${route.operationId} UpdateItem`).toBe(
        route.permission === 'api_keys.manage',
      );
    }
  });

  it("lets only the webhooks area's operations touch webhook subscriptions and their secrets, by key or by their list", async () => {
    for (const route of table) {
      const role = roleOf(route);
      const webhooks = route.area === 'webhooks';
      expect(await decide(role, { action: 'GetItem', partition: 'C#7#WHSUB#4f1c' }), route.operationId).toBe(
        webhooks ? 'allow' : 'deny',
      );
      expect(await decide(role, { action: 'Query', index: 'gsi1', partition: 'C#7#WHSUBS' }), route.operationId).toBe(
        webhooks ? 'allow' : 'deny',
      );
      expect(await decide(role, { action: 'Query', partition: 'C#7#WHSUB#4f1c' }), route.operationId).toBe(
        webhooks ? 'allow' : 'deny',
      );
    }
  });
});

describe('the roles the route table gives', () => {
  const synth = synthesize();
  const roleNamed = (operationId: string) => roleOfFunction(synth, `brigade-dev-${operationId}`);
  const decide = (role: FunctionRole, request: ItemRequest) => decideItem(synth, role, request);

  it("keeps the bookings functions off API Gateway, API keys and webhook secrets, on their company's items, codes and sweep", async () => {
    const role = roleNamed('createBooking');
    expect(allowedActions(role.statements).filter((a) => !a.startsWith('dynamodb:') && !a.startsWith('logs:'))).toEqual(
      [],
    );
    expect(await decide(role, { action: 'GetItem', partition: 'KEY#abcdefghijkl' })).toBe('deny');
    expect(await decide(role, { action: 'GetItem', partition: 'C#7#WHSUB#4f1c' })).toBe('deny');
    expect(await decide(role, { action: 'GetItem', partition: 'PERMISSIONS' })).toBe('none');
    expect(await decide(role, { action: 'PutItem', partition: 'C#7' })).toBe('allow');
    expect(await decide(role, { action: 'PutItem', partition: 'CODE#ABCDEFGH' })).toBe('allow');
    expect(await decide(role, { action: 'DeleteItem', partition: 'SWEEP#2026-06-01T19' })).toBe('allow');
    // The sweep items' shards (shared/data/noShowSweep.ts) are under the same family.
    expect(await decide(role, { action: 'PutItem', partition: 'SWEEP#2026-06-01T19#07' })).toBe('allow');
    expect(await decide(role, { action: 'DeleteItem', partition: 'SWEEP#WAITLIST#2026-06-01T19#15' })).toBe('allow');
    expect(await decide(role, { action: 'UpdateItem', partition: 'RATE#key:abc' })).toBe('allow');
    expect(await decide(role, { action: 'GetItem', partition: 'RATE#key:abc' })).toBe('none');
  });

  it('gives the public by-code operations only the actions they use: company reads by key, batch and gsi1 (a cancel re-optimizing its date), no gsi2, no code deletes, no sweep puts, rate windows counted only, anonymous idempotency records', async () => {
    for (const operationId of [
      'cancelBookingByCode',
      'listBookingMembersByCode',
      'addBookingMemberByCode',
      'rsvpBooking',
    ]) {
      expect(sorted(await effectiveGrants(synth, roleNamed(operationId))), operationId).toEqual(
        sorted({
          company: [
            'GetItem',
            'BatchGetItem',
            'Query',
            'Query:gsi1',
            'PutItem',
            'UpdateItem',
            'DeleteItem',
            'ConditionCheckItem',
          ],
          confirmationCodes: ['GetItem', 'PutItem'],
          noShowSweep: ['DeleteItem'],
          rateWindows: ['UpdateItem'],
          apiKeyLookups: ['GetItem'],
          idempotency: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
        }),
      );
    }
  });

  it('gives the fallback and the probes nothing but counting, verifying a presented credential and (probes) reading the health key', async () => {
    const counting = { rateWindows: ['UpdateItem'], apiKeyLookups: ['GetItem'], company: ['GetItem'] };
    expect(sorted(await effectiveGrants(synth, roleOfFunction(synth, 'brigade-dev-fallback')))).toEqual(
      sorted(counting as Grants),
    );
    for (const probe of ['live', 'ready', 'health']) {
      expect(sorted(await effectiveGrants(synth, roleNamed(probe))), probe).toEqual(
        sorted({ ...counting, healthProbe: ['GetItem'] } as Grants),
      );
    }
  });

  it('lets the functions outside the route table touch only their families: authorizer, no-show sweeper, webhook dispatcher and deliverer, catalog seed', async () => {
    const fns = {
      authorizer: 'brigade-dev-authorizer',
      noShowSweeper: 'brigade-dev-no-show-sweeper',
      webhookDispatcher: 'brigade-dev-webhook-dispatcher',
      webhookDeliverer: 'brigade-dev-webhook-delivery',
      catalogSeeder: 'brigade-dev-catalog-seed',
    } as const;
    for (const [name, functionName] of Object.entries(fns) as [keyof typeof fns, string][]) {
      expect(sorted(await effectiveGrants(synth, roleOfFunction(synth, functionName))), name).toEqual(
        sorted(functionGrants[name]),
      );
    }
    // The sweeper queries every shard of an hour and the hour's partition of before the shards.
    for (const partition of ['SWEEP#2026-06-01T19#00', 'SWEEP#WAITLIST#2026-06-01T19#15', 'SWEEP#2026-06-01T19'])
      expect(await decide(roleOfFunction(synth, fns.noShowSweeper), { action: 'Query', partition }), partition).toBe(
        'allow',
      );
    // Only the authorizer and the public functions read a key lookup; only the pipeline reads secrets.
    expect(
      await decide(roleOfFunction(synth, fns.noShowSweeper), { action: 'GetItem', partition: 'KEY#abcdefghijkl' }),
    ).toBe('deny');
    expect(
      await decide(roleOfFunction(synth, fns.authorizer), { action: 'GetItem', partition: 'C#7#WHSUB#4f1c' }),
    ).toBe('deny');
    expect(
      await decide(roleOfFunction(synth, fns.webhookDispatcher), {
        action: 'Query',
        index: 'gsi1',
        partition: 'C#7#WHSUBS',
      }),
    ).toBe('allow');
  });
});

describe('KMS', () => {
  const synth = synthesize();

  it('is needed by no function: the table and queues use keys AWS manages for the service, so no role names kms:*, and a send to an SSE-SQS queue needs none', async () => {
    const roles = [...functionRoles(synth).values()];
    expect(
      roles.flatMap((r) =>
        allowedActions(r.statements)
          .filter((a) => a.toLowerCase().startsWith('kms:'))
          .map((a) => `${r.functionName}: ${a}`),
      ),
    ).toEqual([]);
    const resources = synth.stacks.flatMap((s) =>
      Object.values(synth.template(s).toJSON().Resources as Record<string, TemplateResource>),
    );
    for (const queue of resources.filter((r) => r.Type === 'AWS::SQS::Queue')) {
      expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true });
      expect(queue.Properties?.KmsMasterKeyId).toBeUndefined();
    }
    const [table] = resources.filter((r) => r.Type === 'AWS::DynamoDB::Table');
    expect(table!.Properties?.SSESpecification?.KMSMasterKeyId).toBeUndefined();
    // The dispatcher's send to its queue is decided by its role alone: no kms:GenerateDataKey asked.
    const dispatcher = roleOfFunction(synth, 'brigade-dev-webhook-dispatcher');
    expect(
      await simulate(dispatcher, {
        action: 'sqs:SendMessage',
        resource: queueArnOf(dispatcher.environment.DELIVERY_QUEUE_URL!),
      }),
    ).toBe('Allowed');
  });
});

describe('areas the infrastructure does not know yet', () => {
  it('give their operations the tenant profile and their public operations only counting and credential checks', () => {
    expect(accessOf({ area: 'loyalty', permission: 'loyalty.manage' })).toEqual({
      name: 'loyalty',
      grants: { ...tenant, rateWindows: ['UpdateItem'] },
      manageUsageKeys: false,
    });
    expect(accessOf({ area: 'loyalty', permission: null })).toEqual({
      name: 'loyalty-public',
      grants: { rateWindows: ['UpdateItem'], apiKeyLookups: ['GetItem'], company: ['GetItem'] },
      manageUsageKeys: false,
    });
  });
});
