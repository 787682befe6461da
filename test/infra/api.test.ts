/**
 * The parent stack's shared API pieces: the REST API and its stage, API Gateway's own error
 * answers, the credential authorizer, the usage plans and keys, and the handlers' role.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { gatewayErrors } from '../../infra/gateway-responses';
import { itemActions } from '../../infra/handler-role';
import { tierThrottles, usageKeyValue } from '../../infra/usage-tiers';
import { tierLimits } from '../../shared/auth/principal';
import { statusOf } from '../../shared/errors';
import { tiers } from '../../shared/schemas/access';
import { synthesize } from './synth';

const synth = synthesize();
const parent = synth.template(synth.stack);
const resources = (type: string) => Object.values(parent.findResources(type));

describe('REST API and stage', () => {
  it('meters usage by the key the authorizer returns', () => {
    parent.hasResourceProperties('AWS::ApiGateway::RestApi', { Name: 'brigade-dev', ApiKeySourceType: 'AUTHORIZER' });
  });

  it('has one stage named after the CDK stage, traced, with access logs and error-level execution logs', () => {
    parent.resourceCountIs('AWS::ApiGateway::Stage', 1);
    parent.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'dev',
      TracingEnabled: true,
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.anyValue() },
      MethodSettings: [Match.objectLike({ LoggingLevel: 'ERROR', DataTraceEnabled: false, HttpMethod: '*', ResourcePath: '/*' })],
    });
    const [stage] = resources('AWS::ApiGateway::Stage');
    expect(JSON.stringify(stage!.Properties.AccessLogSetting.DestinationArn)).toMatch(/AccessLogs/);
    expect(JSON.parse(stage!.Properties.AccessLogSetting.Format)).toMatchObject({
      requestId: '$context.requestId',
      principalId: '$context.authorizer.principalId',
      status: '$context.status',
    });
  });
});

describe("API Gateway's own errors", () => {
  const byType = new Map(resources('AWS::ApiGateway::GatewayResponse').map((r) => [r.Properties.ResponseType, r.Properties]));

  it.each(['DEFAULT_4XX', 'DEFAULT_5XX', 'UNAUTHORIZED', 'ACCESS_DENIED', 'THROTTLED', 'QUOTA_EXCEEDED'])('%s answers in the error envelope', (type) => {
    const body = JSON.parse(byType.get(type)?.ResponseTemplates['application/json']);
    expect(body).toEqual({
      status: 'error',
      error: { code: expect.any(String), message: expect.any(String), details: [] },
      meta: { requestId: '$context.requestId' },
    });
  });

  it('uses the contract codes, with the status that goes with each', () => {
    const codes = Object.fromEntries([...byType].map(([type, p]) => [type, JSON.parse(p.ResponseTemplates['application/json']).error.code]));
    expect(codes).toMatchObject({
      DEFAULT_5XX: 'INTERNAL',
      UNAUTHORIZED: 'UNAUTHENTICATED',
      ACCESS_DENIED: 'FORBIDDEN',
      THROTTLED: 'RATE_LIMITED',
      QUOTA_EXCEEDED: 'RATE_LIMITED',
      MISSING_AUTHENTICATION_TOKEN: 'NOT_FOUND',
      AUTHORIZER_FAILURE: 'UNAVAILABLE',
    });
    for (const e of gatewayErrors) {
      expect(byType.get(e.type.responseType)?.StatusCode, e.type.responseType).toBe(e.keepStatus ? undefined : String(statusOf[e.code]));
    }
    expect(byType.get('THROTTLED')?.ResponseParameters).toEqual({ 'gatewayresponse.header.Retry-After': "'1'" });
  });
});

describe('credential authorizer', () => {
  const [fn] = resources('AWS::Lambda::Function').filter((f) => f.Properties.FunctionName === 'brigade-dev-authorizer');

  it('is a REQUEST authorizer without identity sources or caching', () => {
    parent.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
    const [authorizer] = resources('AWS::ApiGateway::Authorizer');
    expect(authorizer!.Properties).toMatchObject({ Type: 'REQUEST', AuthorizerResultTtlInSeconds: 0 });
    expect(authorizer!.Properties.IdentitySource).toBeUndefined();
  });

  it('runs functions/authorizer.ts on Node.js 22, arm64, with the usage key values', () => {
    expect(fn?.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler' });
    expect(JSON.parse(fn!.Properties.Environment.Variables.USAGE_KEYS)).toEqual({
      standard: usageKeyValue('dev', 'standard'),
      premium: usageKeyValue('dev', 'premium'),
      unlimited: usageKeyValue('dev', 'unlimited'),
      anonymous: usageKeyValue('dev', 'anonymous'),
    });
  });

  it('may only read a key item from the table and write its logs', () => {
    const role = fn!.Properties.Role['Fn::GetAtt'][0];
    const [policy] = resources('AWS::IAM::Policy').filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: role }]));
    expect(policy!.Properties.PolicyDocument.Statement.map((s: { Action: unknown }) => s.Action)).toEqual([
      'dynamodb:GetItem',
      ['logs:CreateLogStream', 'logs:PutLogEvents'],
    ]);
  });
});

describe('usage plans', () => {
  const plans = resources('AWS::ApiGateway::UsagePlan');

  it('has one plan per tier, throttled per second in proportion to the tier', () => {
    expect(plans.map((p) => p.Properties.UsagePlanName).sort()).toEqual(tiers.map((t) => `brigade-dev-${t}`).sort());
    for (const tier of tiers) {
      parent.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
        UsagePlanName: `brigade-dev-${tier}`,
        Throttle: { RateLimit: tierThrottles[tier].rateLimit, BurstLimit: tierThrottles[tier].burstLimit },
      });
    }
    const rates = [...tiers].sort((a, b) => tierLimits[a] - tierLimits[b]).map((t) => tierThrottles[t].rateLimit!);
    expect(rates).toEqual([...rates].sort((a, b) => a - b));
  });

  it('attaches every plan to the stage once the stage exists', () => {
    const associations = resources('Custom::AWS').map((r) => JSON.stringify(r.Properties.Create));
    expect(associations).toHaveLength(tiers.length);
    const all = parent.toJSON().Resources;
    for (const tier of tiers) {
      const planId = Object.keys(all).find((id) => all[id].Properties?.UsagePlanName === `brigade-dev-${tier}`)!;
      const association = associations.filter((a) => a.includes(`{"Ref":"${planId}"}`));
      expect(association, tier).toHaveLength(1);
      expect(association[0]).toMatch(/UpdateUsagePlan.*\\"op\\":\\"add\\",\\"path\\":\\"\/apiStages.*ApiRestApiDeploymentStagedev/);
    }
  });

  it('has a shared fallback key per tier and an anonymous key on the standard plan, with deterministic values', () => {
    const keys = resources('AWS::ApiGateway::ApiKey');
    expect(keys.map((k) => k.Properties.Value).sort()).toEqual(['standard', 'premium', 'unlimited', 'anonymous'].map((n) => usageKeyValue('dev', n as never)).sort());
    for (const key of keys) expect(key.Properties.Value).toMatch(/^[A-Za-z0-9]{20,128}$/);
    expect(usageKeyValue('prod', 'standard')).not.toBe(usageKeyValue('dev', 'standard'));

    const planKeys = resources('AWS::ApiGateway::UsagePlanKey').map((k) => [k.Properties.KeyId.Ref, k.Properties.UsagePlanId.Ref]);
    expect(planKeys).toHaveLength(4);
    expect(planKeys).toContainEqual([expect.stringMatching(/^UsageanonymousKey/), expect.stringMatching(/^UsagestandardPlan/)]);
    for (const tier of tiers) expect(planKeys).toContainEqual([expect.stringMatching(new RegExp(`^Usage${tier}Key`)), expect.stringMatching(new RegExp(`^Usage${tier}Plan`))]);
  });
});

describe("handlers' shared role", () => {
  const [statements] = resources('AWS::IAM::Policy')
    .filter((p) => JSON.stringify(p.Properties.Roles).includes('HandlerRole'))
    .map((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);

  it('is the only role of every HTTP handler', () => {
    const roles = new Set(synth.stack.areaStacks.flatMap((s) => Object.values(synth.template(s).findResources('AWS::Lambda::Function')).map((f) => JSON.stringify(f.Properties.Role))));
    expect(roles.size).toBe(1);
    expect([...roles][0]).toMatch(/HandlerRole/);
  });

  it("allows the data layer's item actions on the table and its indexes by name, nothing table-wide", () => {
    const dynamo = statements!.find((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')))!;
    expect([dynamo.Action].flat().sort()).toEqual([...itemActions].sort());
    expect(JSON.stringify(dynamo.Resource)).toMatch(/\/index\/gsi1.*\/index\/gsi2/);
    expect(JSON.stringify(dynamo.Resource)).not.toContain('*');
  });

  it("writes only this stage's handler log groups, and may add usage keys to the tier plans", () => {
    expect(statements!.find((s) => s.Action.includes('logs:PutLogEvents'))!.Resource).toMatchObject({
      'Fn::Join': ['', expect.arrayContaining([':log-group:/aws/lambda/brigade-dev-*:*'])],
    });
    const post = statements!.find((s) => s.Action === 'apigateway:POST')!;
    expect(JSON.stringify(post.Resource)).toContain('::/apikeys');
    expect((post.Resource as unknown[]).filter((r) => JSON.stringify(r).includes('/keys'))).toHaveLength(tiers.length);
  });

  it('tells the handlers each tier\'s plan id (USAGE_PLAN_IDS)', () => {
    const [area] = synth.stack.areaStacks;
    const [fn] = Object.values(synth.template(area!).findResources('AWS::Lambda::Function'));
    const ids = JSON.stringify(fn!.Properties.Environment.Variables.USAGE_PLAN_IDS);
    for (const tier of tiers) expect(ids).toMatch(new RegExp(`\\\\"${tier}\\\\":.*Usage${tier}Plan`));
  });
});
