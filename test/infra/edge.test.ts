/**
 * Abuse limits at the edge (infra/edge.ts): the stage's web ACL and its rate rules (per client IP,
 * per X-API-Key, per Authorization value, on the public operations per IP; none for the whole
 * platform together), what API Gateway answers when it blocks, the stage settings that size it, the authorizer's reserved
 * concurrency, and how JWT users get a bucket of their own instead of the tier's shared one.
 */
import { describe, expect, it } from 'vitest';
import { edgeContextKeys, edgeDefaults, pathRegexes, publicRoutes } from '../../infra/edge';
import { crowdThrottle, tierThrottles, usageKeyValue } from '../../infra/usage-tiers';
import { routes, type Route } from '../../shared/routes';
import { synthesize, syntheticRoutes, type TemplateResource } from './synth';

type Resource = TemplateResource;

function parentOf(options: Parameters<typeof synthesize>[0] = {}) {
  const synth = synthesize(options);
  const all = synth.template(synth.stack).toJSON().Resources as Record<string, Resource>;
  const ofType = (type: string) => Object.entries(all).filter(([, r]) => r.Type === type);
  return { synth, all, ofType };
}

const ruleOf = (acl: Resource, name: string) => {
  const rule = (
    acl.Properties.Rules as {
      Name: string;
      Statement: { RateBasedStatement: TemplateResource['Properties'] };
      Action: unknown;
    }[]
  ).find((r) => r.Name === name);
  expect(rule, name).toBeDefined();
  return rule!;
};

/** What WAF sees of a request's path once it applies the rule's transformations (URL decoding, path normalization). */
const wafPath = (path: string) => decodeURIComponent(path).replace(/\/{2,}/g, '/');
const matchesPublic = (regexes: readonly string[], path: string) =>
  regexes.some((r) => new RegExp(r).test(wafPath(path)));

describe('web ACL of the stage', () => {
  const { all, ofType } = parentOf();
  const [[aclId, acl]] = ofType('AWS::WAFv2::WebACL') as [[string, Resource]];
  const limits = edgeDefaults.dev.waf;

  it('is one regional web ACL, associated with the API stage, letting through what no rule blocks', () => {
    expect(ofType('AWS::WAFv2::WebACL')).toHaveLength(1);
    expect(acl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} }, Name: 'brigade-dev' });
    const [[, association]] = ofType('AWS::WAFv2::WebACLAssociation') as [[string, Resource]];
    expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    const stageId = ofType('AWS::ApiGateway::Stage')[0]![0];
    const restApiId = ofType('AWS::ApiGateway::RestApi')[0]![0];
    const arn = JSON.stringify(association.Properties.ResourceArn);
    expect(arn).toContain(`{"Ref":"${restApiId}"}`);
    expect(arn).toContain(`/stages/",{"Ref":"${stageId}"}`);
    expect(all[stageId]).toBeDefined();
  });

  it('blocks per client IP, per X-API-Key and per Authorization value above the stage limits, counted over the stage window', () => {
    expect(ruleOf(acl, 'per-ip').Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: limits.perIp,
      EvaluationWindowSec: limits.windowSeconds,
    });
    for (const [name, header, limit] of [
      ['per-api-key', 'x-api-key', limits.perApiKey],
      ['per-bearer-token', 'authorization', limits.perBearerToken],
    ] as const) {
      expect(ruleOf(acl, name).Statement.RateBasedStatement, name).toEqual({
        AggregateKeyType: 'CUSTOM_KEYS',
        CustomKeys: [{ Header: { Name: header, TextTransformations: [{ Priority: 0, Type: 'NONE' }] } }],
        Limit: limit,
        EvaluationWindowSec: limits.windowSeconds,
      });
    }
    for (const rule of acl.Properties.Rules as { Action: unknown; VisibilityConfig: Record<string, unknown> }[]) {
      expect(rule.Action).toEqual({ Block: {} });
      expect(rule.VisibilityConfig).toMatchObject({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true });
    }
  });

  it('limits the public operations per client IP, matching every public path of the route table and nothing else', () => {
    const perIp = ruleOf(acl, 'public-per-ip').Statement.RateBasedStatement;
    expect(perIp).toMatchObject({
      AggregateKeyType: 'IP',
      Limit: limits.publicPerIp,
      EvaluationWindowSec: limits.windowSeconds,
    });
    const scope = perIp.ScopeDownStatement.RegexMatchStatement;
    expect(scope.FieldToMatch).toEqual({ UriPath: {} });
    expect(scope.TextTransformations.map((t: { Type: string }) => t.Type)).toEqual(['URL_DECODE', 'NORMALIZE_PATH']);

    const regexes = [scope.RegexString as string];
    const code = 'ABCD2345';
    for (const path of [
      '/api/v1/bookings/by-code/{code}/cancel',
      '/api/v1/bookings/by-code/{code}/members',
      '/api/v1/bookings/rsvp',
    ]) {
      expect(publicRoutes(routes as readonly Route[]).map((r) => r.path)).toContain(path);
      const concrete = path.replace('{code}', code);
      // The execute-api host puts the stage first; a custom domain does not; an encoded or doubled character changes nothing.
      for (const variant of [
        concrete,
        `/dev${concrete}`,
        concrete.replace('by-code', 'by-c%6Fde'),
        concrete.replace('/bookings', '//bookings'),
      ]) {
        expect(matchesPublic(regexes, variant), variant).toBe(true);
      }
    }
    for (const path of [
      '/api/v1/bookings/B1/cancel',
      '/api/v1/bookings',
      '/live',
      '/api/v1/bookings/by-code/ABCD2345/members/M1',
      '/api/v1/locations/101/bookings/by-table',
    ]) {
      expect(matchesPublic(regexes, path), path).toBe(false);
    }
  });

  it('has no rule that counts all clients together, so no one can spend a platform-wide total and have every tenant refused', () => {
    const rules = acl.Properties.Rules as {
      Name: string;
      Statement: { RateBasedStatement: Record<string, unknown> };
    }[];
    expect(rules.map((r) => r.Name)).toEqual(['public-per-ip', 'per-ip', 'per-api-key', 'per-bearer-token']);
    for (const rule of rules) {
      expect(rule.Statement.RateBasedStatement.AggregateKeyType, rule.Name).not.toBe('CONSTANT');
      expect(['IP', 'FORWARDED_IP', 'CUSTOM_KEYS'], rule.Name).toContain(
        rule.Statement.RateBasedStatement.AggregateKeyType,
      );
    }
    // Nor on the production stage.
    const [[, prod]] = parentOf({ context: { stage: 'prod' } }).ofType('AWS::WAFv2::WebACL') as [[string, Resource]];
    for (const rule of prod.Properties.Rules as typeof rules)
      expect(rule.Statement.RateBasedStatement.AggregateKeyType, `prod ${rule.Name}`).not.toBe('CONSTANT');
  });

  it('answers a block with 429 RATE_LIMITED in the envelope, with Retry-After the window', () => {
    const [[, blocked]] = ofType('AWS::ApiGateway::GatewayResponse').filter(
      ([, r]) => r.Properties.ResponseType === 'WAF_FILTERED',
    ) as [[string, Resource]];
    expect(blocked.Properties.StatusCode).toBe('429');
    expect(blocked.Properties.ResponseParameters).toMatchObject({
      'gatewayresponse.header.Retry-After': `'${limits.windowSeconds}'`,
    });
    expect(JSON.parse(blocked.Properties.ResponseTemplates['application/json'])).toMatchObject({
      status: 'error',
      error: { code: 'RATE_LIMITED', details: [] },
      meta: { requestId: '$context.requestId' },
    });
  });
});

describe('public path regexes', () => {
  it('split a long list of public paths into regexes WAF accepts (at most 512 characters), each path matched by one', () => {
    const paths = Array.from(
      { length: 40 },
      (_, i) => `/api/v1/area${i}/locations/{locationId}/by-code/{code}/something-long-${i}`,
    );
    const regexes = pathRegexes(paths);
    expect(regexes.length).toBeGreaterThan(1);
    for (const r of regexes) expect(r.length).toBeLessThanOrEqual(512);
    for (const [i, path] of paths.entries()) {
      const concrete = path.replace('{locationId}', '101').replace('{code}', 'ABCD2345');
      expect(
        regexes.filter((r) => new RegExp(r).test(concrete)),
        `path ${i}`,
      ).toHaveLength(1);
    }
  });

  it('put several regexes of the synthetic table under one OR', () => {
    const { ofType } = parentOf({ routes: syntheticRoutes() });
    const [[, acl]] = ofType('AWS::WAFv2::WebACL') as [[string, Resource]];
    const scope = ruleOf(acl, 'public-per-ip').Statement.RateBasedStatement.ScopeDownStatement;
    const regexes = pathRegexes(publicRoutes(syntheticRoutes()).map((r) => r.path));
    if (regexes.length === 1) expect(scope.RegexMatchStatement.RegexString).toBe(regexes[0]);
    else
      expect(
        scope.OrStatement.Statements.map(
          (s: { RegexMatchStatement: { RegexString: string } }) => s.RegexMatchStatement.RegexString,
        ),
      ).toEqual(regexes);
  });
});

describe('edge settings', () => {
  const authorizerOf = (ofType: (t: string) => [string, Resource][]) =>
    ofType('AWS::Lambda::Function').find(([, f]) => String(f.Properties.FunctionName).endsWith('-authorizer'))![1];

  it('reserve the authorizer no concurrency by default, so a first deploy succeeds in a new account with a small quota', () => {
    expect(edgeDefaults.dev.authorizerConcurrency).toBeUndefined();
    expect(edgeDefaults.prod.authorizerConcurrency).toBeUndefined();
    expect(authorizerOf(parentOf().ofType).Properties).not.toHaveProperty('ReservedConcurrentExecutions');
    expect(authorizerOf(parentOf({ context: { stage: 'prod' } }).ofType).Properties).not.toHaveProperty(
      'ReservedConcurrentExecutions',
    );
  });

  it('reserve the authorizer the concurrency the stage sets, so a flood of credentials stops there', () => {
    expect(
      authorizerOf(parentOf({ context: { stage: 'prod', [edgeContextKeys.authorizerConcurrency]: '150' } }).ofType)
        .Properties.ReservedConcurrentExecutions,
    ).toBe(150);
    // The rest of the stage's functions share the account's unreserved concurrency.
    const { synth } = parentOf();
    for (const stack of synth.stack.areaStacks) {
      for (const fn of Object.values(synth.template(stack).findResources('AWS::Lambda::Function')))
        expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
  });

  it('answer an authorizer that cannot be invoked (throttled at its concurrency) with 503 UNAVAILABLE', () => {
    const [[, response]] = parentOf()
      .ofType('AWS::ApiGateway::GatewayResponse')
      .filter(([, r]) => r.Properties.ResponseType === 'AUTHORIZER_CONFIGURATION_ERROR') as [[string, Resource]];
    expect(response.Properties.StatusCode).toBe('503');
    expect(JSON.parse(response.Properties.ResponseTemplates['application/json']).error.code).toBe('UNAVAILABLE');
  });

  it('take every limit from CDK context', () => {
    const context = {
      [edgeContextKeys.windowSeconds]: '60',
      [edgeContextKeys.perIp]: '5000',
      [edgeContextKeys.perApiKey]: 6000,
      [edgeContextKeys.perBearerToken]: '700',
      [edgeContextKeys.publicPerIp]: '20',
      [edgeContextKeys.authorizerConcurrency]: '7',
    };
    const { ofType } = parentOf({ context });
    const [[, acl]] = ofType('AWS::WAFv2::WebACL') as [[string, Resource]];
    const limitOf = (name: string) => ruleOf(acl, name).Statement.RateBasedStatement;
    expect(
      ['per-ip', 'per-api-key', 'per-bearer-token', 'public-per-ip'].map((n) => [
        limitOf(n).Limit,
        limitOf(n).EvaluationWindowSec,
      ]),
    ).toEqual([
      [5000, 60],
      [6000, 60],
      [700, 60],
      [20, 60],
    ]);
    expect(authorizerOf(ofType).Properties.ReservedConcurrentExecutions).toBe(7);
    const [[, blocked]] = ofType('AWS::ApiGateway::GatewayResponse').filter(
      ([, r]) => r.Properties.ResponseType === 'WAF_FILTERED',
    ) as [[string, Resource]];
    expect(blocked.Properties.ResponseParameters['gatewayresponse.header.Retry-After']).toBe("'60'");
  });

  it.each([
    [edgeContextKeys.windowSeconds, '30', /60, 120, 300, 600/],
    [edgeContextKeys.perIp, '5', /from 10/],
    [edgeContextKeys.publicPerIp, 'many', /whole number/],
    [edgeContextKeys.authorizerConcurrency, '0', /at least 1/],
  ])('refuse -c %s=%s', (key, value, message) => {
    expect(() => synthesize({ context: { [key]: value } })).toThrow(message);
  });
});

describe('throughput of JWT users', () => {
  const { ofType } = parentOf();
  const plans = new Map(ofType('AWS::ApiGateway::UsagePlan').map(([id, p]) => [id, p.Properties]));
  const planOfKey = (value: string) => {
    const [keyId] = ofType('AWS::ApiGateway::ApiKey').find(([, k]) => k.Properties.Value === value)!;
    const [, planKey] = ofType('AWS::ApiGateway::UsagePlanKey').find(([, k]) => k.Properties.KeyId.Ref === keyId)!;
    return plans.get(planKey.Properties.UsagePlanId.Ref);
  };

  it("meters JWT users (the standard tier's fallback key) on the crowd plan, whose throttle is a ceiling far above one tier key's", () => {
    const plan = planOfKey(usageKeyValue('dev', 'standard'));
    expect(plan?.UsagePlanName).toBe('brigade-dev-crowd');
    expect(plan?.Throttle).toEqual({ RateLimit: crowdThrottle.rateLimit, BurstLimit: crowdThrottle.burstLimit });
    expect(crowdThrottle.rateLimit!).toBeGreaterThanOrEqual(10 * tierThrottles.standard.rateLimit!);
  });

  it('gives each bearer token its own bucket at the edge, below the crowd ceiling', () => {
    const [[, acl]] = ofType('AWS::WAFv2::WebACL') as [[string, Resource]];
    const { Limit, EvaluationWindowSec } = ruleOf(acl, 'per-bearer-token').Statement.RateBasedStatement;
    expect(Limit / EvaluationWindowSec).toBeLessThan(crowdThrottle.rateLimit!);
  });
});
