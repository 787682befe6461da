/**
 * Abuse limits at the edge of a deployed stage: a WAFv2 web ACL on the API's stage whose rules
 * are all rate limits (per client IP, per `X-API-Key`, per `Authorization` value, and on the
 * public operations per IP), and the authorizer's reserved concurrency when the stage sets one
 * (none by default: docs/deploy.md sizes it for production). Every rule counts per client or per
 * credential, never for the whole platform together: a platform-wide total would let whoever
 * spends it have every tenant's callers refused at once. API Gateway
 * answers a block with the WAF_FILTERED gateway response: 429 RATE_LIMITED in the envelope
 * (gateway-responses.ts). The local stage has no edge: its handlers' hourly windows are all it has.
 *
 * The limits are stage settings (CDK context, see `edgeSettings`), with the defaults below.
 */
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct, type Node } from 'constructs';
import type { Route } from '../shared/routes';
import type { DeployStage } from './settings';

/** Requests per evaluation window that a rule lets through per aggregation instance. */
export interface WafLimits {
  /** WAF counts over the trailing 60, 120, 300 or 600 s. */
  windowSeconds: number;
  /** Every request of one client IP: a flood from one source, garbage credentials included. */
  perIp: number;
  /** Every request carrying one `X-API-Key` value. */
  perApiKey: number;
  /** Every request carrying one `Authorization` value: a JWT user's own bucket (per token). */
  perBearerToken: number;
  /**
   * Public operations (by confirmation code, RSVP) from one client IP: guessing codes. There is
   * deliberately no total over all clients: its limit would be a few requests a second for the
   * whole platform, and whoever spent it (from many addresses, or just a busy evening) would have
   * every guest of every restaurant refused. Guessing from many addresses meets each address's
   * limit here and the handlers' budget of failed lookups per client (docs/access.md "Codes").
   */
  publicPerIp: number;
}

export interface EdgeSettings {
  waf: WafLimits;
  /**
   * The authorizer's reserved concurrency: its ceiling, so a flood cannot take the account's.
   * Undefined: none reserved. Lambda refuses a reservation that leaves the account fewer than 100
   * unreserved, so a default would fail the first deploy into a new account (whose quota may be
   * 10); production sets it once its quota allows (docs/deploy.md "Sizing the authorizer").
   */
  authorizerConcurrency: number | undefined;
}

/**
 * Defaults, per 5 minutes: an IP may carry several merchants' integrations (a NAT), so it gets as
 * much as a key; a key 20,000 (67 per second, above the unlimited tier's hourly 100,000 spread over
 * the hour); a token 2,000 (a user's hourly 1,000 fits in any 5 minutes); the public operations
 * 100 per IP (the handlers' per-IP window is 1,000 an hour).
 */
export const edgeDefaults: Record<DeployStage, EdgeSettings> = {
  dev: {
    waf: {
      windowSeconds: 300,
      perIp: 20_000,
      perApiKey: 20_000,
      perBearerToken: 2_000,
      publicPerIp: 100,
    },
    authorizerConcurrency: undefined,
  },
  prod: {
    waf: {
      windowSeconds: 300,
      perIp: 20_000,
      perApiKey: 20_000,
      perBearerToken: 2_000,
      publicPerIp: 100,
    },
    authorizerConcurrency: undefined,
  },
};

/** The context key of each setting (`npx cdk deploy -c stage=prod -c wafPerIp=50000`). */
export const edgeContextKeys = {
  windowSeconds: 'wafWindowSeconds',
  perIp: 'wafPerIp',
  perApiKey: 'wafPerApiKey',
  perBearerToken: 'wafPerBearerToken',
  publicPerIp: 'wafPublicPerIp',
  authorizerConcurrency: 'authorizerConcurrency',
} as const satisfies Record<keyof WafLimits | 'authorizerConcurrency', string>;

const WAF_WINDOWS = [60, 120, 300, 600];
const WAF_MIN_LIMIT = 10;
const WAF_MAX_LIMIT = 2_000_000_000;

/** The stage's edge settings: its defaults, with what CDK context overrides (checked here). */
export function edgeSettings(node: Node, stage: DeployStage): EdgeSettings {
  const defaults = edgeDefaults[stage];
  const setting = <T extends number | undefined>(
    name: keyof typeof edgeContextKeys,
    fallback: T,
    valid: (n: number) => boolean,
    what: string,
  ): number | T => {
    const raw: unknown = node.tryGetContext(edgeContextKeys[name]);
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || !valid(value))
      throw new Error(`-c ${edgeContextKeys[name]}=${String(raw)}: ${what}`);
    return value;
  };
  const limit = (name: Exclude<keyof WafLimits, 'windowSeconds'>) =>
    setting(
      name,
      defaults.waf[name],
      (n) => n >= WAF_MIN_LIMIT && n <= WAF_MAX_LIMIT,
      `a WAF rate limit is a whole number from ${WAF_MIN_LIMIT} to ${WAF_MAX_LIMIT}`,
    );
  return {
    waf: {
      windowSeconds: setting(
        'windowSeconds',
        defaults.waf.windowSeconds,
        (n) => WAF_WINDOWS.includes(n),
        `WAF counts over ${WAF_WINDOWS.join(', ')} seconds`,
      ),
      perIp: limit('perIp'),
      perApiKey: limit('perApiKey'),
      perBearerToken: limit('perBearerToken'),
      publicPerIp: limit('publicPerIp'),
    },
    authorizerConcurrency: setting(
      'authorizerConcurrency',
      defaults.authorizerConcurrency,
      (n) => n >= 1,
      'reserved concurrency is a whole number of at least 1',
    ),
  };
}

/** The public operations the by-IP public rule counts: every public row but the health probes. */
export const publicRoutes = (routes: readonly Route[]) => routes.filter((r) => r.permission === null && !r.probe);

/** WAF takes a regex of at most 512 characters. */
const WAF_MAX_REGEX = 512;

/**
 * Regexes (each within WAF's size) that match the URI path of any of these routes, wherever the
 * path starts (`/dev/api/…` on the execute-api host, `/api/…` on a custom domain); a path
 * parameter is one segment. Matched after URL-decoding and path normalization, so an encoded or
 * doubled character does not slip by.
 */
export function pathRegexes(paths: readonly string[]): string[] {
  const alternatives = [...new Set(paths)].map((path) =>
    path
      .split('/')
      .map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')))
      .join('/'),
  );
  const chunks: string[][] = [];
  for (const alternative of alternatives) {
    const current = chunks.at(-1);
    if (current && `(${[...current, alternative].join('|')})$`.length <= WAF_MAX_REGEX) current.push(alternative);
    else chunks.push([alternative]);
  }
  return chunks.map((chunk) => {
    const regex = `(${chunk.join('|')})$`;
    if (regex.length > WAF_MAX_REGEX)
      throw new Error(`a public path is longer than WAF's ${WAF_MAX_REGEX}-character regex: ${chunk[0]}`);
    return regex;
  });
}

const normalized: wafv2.CfnWebACL.TextTransformationProperty[] = [
  { priority: 0, type: 'URL_DECODE' },
  { priority: 1, type: 'NORMALIZE_PATH' },
];

/** Matches a request to any of the paths. */
function pathStatement(paths: readonly string[]): wafv2.CfnWebACL.StatementProperty {
  const statements = pathRegexes(paths).map((regexString) => ({
    regexMatchStatement: { regexString, fieldToMatch: { uriPath: {} }, textTransformations: normalized },
  }));
  return statements.length === 1 ? statements[0]! : { orStatement: { statements } };
}

const header = (name: string): wafv2.CfnWebACL.RateBasedStatementCustomKeyProperty => ({
  header: { name, textTransformations: [{ priority: 0, type: 'NONE' }] },
});

export interface EdgeFirewallProps {
  stage: DeployStage;
  api: apigw.RestApi;
  routes: readonly Route[];
  limits: WafLimits;
}

/** The stage's web ACL and its association with the API's stage. */
export class EdgeFirewall extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, { stage, api, routes, limits }: EdgeFirewallProps) {
    super(scope, id);
    const visibility = (name: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName: `brigade-${stage}-${name}`,
    });
    const rules: wafv2.CfnWebACL.RuleProperty[] = [];
    const rule = (
      name: string,
      limit: number,
      aggregation: Omit<wafv2.CfnWebACL.RateBasedStatementProperty, 'limit' | 'evaluationWindowSec'>,
    ) =>
      rules.push({
        name,
        priority: rules.length,
        action: { block: {} },
        statement: { rateBasedStatement: { limit, evaluationWindowSec: limits.windowSeconds, ...aggregation } },
        visibilityConfig: visibility(name),
      });

    const publicPaths = publicRoutes(routes).map((r) => r.path);
    if (publicPaths.length > 0) {
      rule('public-per-ip', limits.publicPerIp, {
        aggregateKeyType: 'IP',
        scopeDownStatement: pathStatement(publicPaths),
      });
    }
    rule('per-ip', limits.perIp, { aggregateKeyType: 'IP' });
    // A request without the header is not counted by its rule.
    rule('per-api-key', limits.perApiKey, { aggregateKeyType: 'CUSTOM_KEYS', customKeys: [header('x-api-key')] });
    rule('per-bearer-token', limits.perBearerToken, {
      aggregateKeyType: 'CUSTOM_KEYS',
      customKeys: [header('authorization')],
    });

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: `brigade-${stage}`,
      description: `Brigade ${stage}: rate limits per client IP, API key, bearer token and on the public operations`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('web-acl'),
      rules,
    });
    new wafv2.CfnWebACLAssociation(this, 'StageAssociation', {
      resourceArn: api.deploymentStage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
