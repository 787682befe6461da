/**
 * The parent stack's shared API pieces: the REST API and its stage, API Gateway's own error
 * answers, the credential authorizer, the usage plans and keys. (Roles: access.test.ts; the web
 * ACL and the authorizer's concurrency: edge.test.ts.)
 */
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { COMPRESS_FROM_KIB } from '../../infra/api';
import { accessOf } from '../../infra/data-access';
import { gatewayErrors } from '../../infra/gateway-responses';
import { operationFunctionName } from '../../infra/handler-function';
import { crowdThrottle, tierThrottles, usageKeyValue } from '../../infra/usage-tiers';
import { tierLimits } from '../../shared/auth/principal';
import { statusOf } from '../../shared/errors';
import { routes, type Route } from '../../shared/routes';
import { tiers } from '../../shared/schemas/access';
import { functionRoles } from './iam';
import { synthesize } from './synth';

const synth = synthesize();
const parent = synth.template(synth.stack);
const resources = (type: string) => Object.values(parent.findResources(type));

describe('REST API and stage', () => {
  it('meters usage by the key the authorizer returns', () => {
    parent.hasResourceProperties('AWS::ApiGateway::RestApi', { Name: 'brigade-dev', ApiKeySourceType: 'AUTHORIZER' });
  });

  it('sends file answers as bytes whatever the Accept (the accounting export): every media type is binary', () => {
    parent.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: ['*/*'] });
  });

  it("compresses large answers for clients that accept it (the docs page's script above all)", () => {
    parent.hasResourceProperties('AWS::ApiGateway::RestApi', { MinimumCompressionSize: COMPRESS_FROM_KIB * 1024 });
  });

  it('has one stage named after the CDK stage (traced on prod only: tracing.test.ts), with access logs and error-level execution logs', () => {
    parent.resourceCountIs('AWS::ApiGateway::Stage', 1);
    parent.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'dev',
      TracingEnabled: false,
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.anyValue() },
      MethodSettings: [
        Match.objectLike({ LoggingLevel: 'ERROR', DataTraceEnabled: false, HttpMethod: '*', ResourcePath: '/*' }),
      ],
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
  const byType = new Map(
    resources('AWS::ApiGateway::GatewayResponse').map((r) => [r.Properties.ResponseType, r.Properties]),
  );

  it.each(['DEFAULT_4XX', 'DEFAULT_5XX', 'UNAUTHORIZED', 'ACCESS_DENIED', 'THROTTLED', 'QUOTA_EXCEEDED'])(
    '%s answers in the error envelope',
    (type) => {
      const body = JSON.parse(byType.get(type)?.ResponseTemplates['application/json']);
      expect(body).toEqual({
        status: 'error',
        error: { code: expect.any(String), message: expect.any(String), details: [] },
        meta: { requestId: '$context.requestId' },
      });
    },
  );

  it('uses the contract codes, with the status that goes with each', () => {
    const codes = Object.fromEntries(
      [...byType].map(([type, p]) => [type, JSON.parse(p.ResponseTemplates['application/json']).error.code]),
    );
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
      expect(byType.get(e.type.responseType)?.StatusCode, e.type.responseType).toBe(
        e.keepStatus ? undefined : String(statusOf[e.code]),
      );
    }
    expect(byType.get('THROTTLED')?.ResponseParameters).toMatchObject({ 'gatewayresponse.header.Retry-After': "'1'" });
  });
});

describe('credential authorizer', () => {
  const [fn] = resources('AWS::Lambda::Function').filter((f) => f.Properties.FunctionName === 'brigade-dev-authorizer');

  // API Gateway answers 401 itself to a request lacking an identity source: with X-API-Key or Authorization
  // (or neither) sent, none can be required, so no verdict is cached (docs/access.md, "How a key is verified").
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

  it('may only read key lookups and company items (a role), update key lookups (their verifier), and write its logs', () => {
    const role = fn!.Properties.Role['Fn::GetAtt'][0];
    const [policy] = resources('AWS::IAM::Policy').filter(
      (p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: role }]),
    );
    const allows = policy!.Properties.PolicyDocument.Statement.filter((s: { Effect: string }) => s.Effect === 'Allow');
    expect(allows.map((s: { Action: unknown }) => s.Action)).toEqual([
      ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
      'dynamodb:GetItem',
      ['logs:CreateLogStream', 'logs:PutLogEvents'],
    ]);
    expect(allows[0].Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['KEY#*'] } });
    expect(allows[1].Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['C#*'] } });
  });

  it('gets the API key pepper from a generated secret by a dynamic reference, as do only the functions that write key lookups', () => {
    parent.hasResourceProperties('AWS::SecretsManager::Secret', {
      Name: 'brigade-dev/api-key-pepper',
      GenerateSecretString: Match.objectLike({ PasswordLength: 64, ExcludePunctuation: true }),
    });
    const roles = functionRoles(synth);
    const peppered = [...roles].filter(([, f]) => 'API_KEY_PEPPER' in f.environment).map(([name]) => name);
    const writers = (routes as readonly Route[])
      .filter((r) => (accessOf(r).grants.apiKeyLookups ?? []).includes('PutItem'))
      .map((r) => operationFunctionName('dev', r.operationId));
    expect(writers.length).toBeGreaterThan(0);
    expect(peppered.sort()).toEqual(['brigade-dev-authorizer', ...writers].sort());
    for (const name of peppered)
      expect(roles.get(name)!.environment.API_KEY_PEPPER, name).toMatch(
        /^\{\{resolve:secretsmanager:.+:SecretString:::\}\}$/,
      );
  });
});

describe('usage plans', () => {
  const plans = resources('AWS::ApiGateway::UsagePlan');
  const planNames = [...tiers, 'crowd'].map((p) => `brigade-dev-${p}`);

  it('has one plan per tier, throttled per second in proportion to the tier, and the crowd plan', () => {
    expect(plans.map((p) => p.Properties.UsagePlanName).sort()).toEqual(planNames.sort());
    parent.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      UsagePlanName: 'brigade-dev-crowd',
      Throttle: { RateLimit: crowdThrottle.rateLimit, BurstLimit: crowdThrottle.burstLimit },
    });
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
    expect(associations).toHaveLength(planNames.length);
    const all = parent.toJSON().Resources;
    for (const name of planNames) {
      const planId = Object.keys(all).find((id) => all[id].Properties?.UsagePlanName === name)!;
      const association = associations.filter((a) => a.includes(`{"Ref":"${planId}"}`));
      expect(association, name).toHaveLength(1);
      expect(association[0]).toMatch(
        /UpdateUsagePlan.*\\"op\\":\\"add\\",\\"path\\":\\"\/apiStages.*ApiRestApiDeploymentStagedev/,
      );
    }
  });

  it('has a fallback key per tier on the crowd plan and an anonymous key on the standard plan, with deterministic values', () => {
    const keys = resources('AWS::ApiGateway::ApiKey');
    expect(keys.map((k) => k.Properties.Value).sort()).toEqual(
      ['standard', 'premium', 'unlimited', 'anonymous'].map((n) => usageKeyValue('dev', n as never)).sort(),
    );
    for (const key of keys) expect(key.Properties.Value).toMatch(/^[A-Za-z0-9]{20,128}$/);
    expect(usageKeyValue('prod', 'standard')).not.toBe(usageKeyValue('dev', 'standard'));

    const planKeys = resources('AWS::ApiGateway::UsagePlanKey').map((k) => [
      k.Properties.KeyId.Ref,
      k.Properties.UsagePlanId.Ref,
    ]);
    expect(planKeys).toHaveLength(4);
    expect(planKeys).toContainEqual([
      expect.stringMatching(/^UsageanonymousKey/),
      expect.stringMatching(/^UsagestandardPlan/),
    ]);
    for (const tier of tiers)
      expect(planKeys).toContainEqual([
        expect.stringMatching(new RegExp(`^Usage${tier}Key`)),
        expect.stringMatching(/^UsagecrowdPlan/),
      ]);
  });
});

describe('handlers', () => {
  it("tells the handlers each tier's plan id (USAGE_PLAN_IDS)", () => {
    const [area] = synth.stack.areaStacks;
    const [fn] = Object.values(synth.template(area!).findResources('AWS::Lambda::Function'));
    const ids = JSON.stringify(fn!.Properties.Environment.Variables.USAGE_PLAN_IDS);
    for (const tier of tiers) expect(ids).toMatch(new RegExp(`\\\\"${tier}\\\\":.*Usage${tier}Plan`));
  });
});
