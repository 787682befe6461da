/**
 * One deployed stage of Brigade. The parent stack holds what every operation shares (table, API
 * and its resources, stage, web ACL, authorizer, usage plans); each route area is a nested stack
 * with its functions and their roles (area-stack.ts). The operations come from the route table and
 * nowhere else.
 */
import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { routes as routeTable, type Route } from '../shared/routes';
import { BrigadeApi } from './api';
import { AreaStack, pascalCase, type EndpointSettings } from './area-stack';
import { CredentialAuthorizer } from './credential-authorizer';
import { EdgeFirewall, edgeSettings } from './edge';
import { FallbackStack } from './fallback-stack';
import { Monitoring } from './monitoring';
import { NoShowSweeper } from './no-show-sweeper';
import { PermissionCatalogSeed } from './permission-catalog';
import { durabilityOf, type StageSettings } from './settings';
import { BrigadeTable } from './table';
import { UsageTiers } from './usage-tiers';
import { pipelineSettings, WebhooksPipeline } from './webhooks-pipeline';

export interface BrigadeStackProps extends StackProps {
  settings: StageSettings;
  /** The operations to deploy; tests pass synthetic tables. */
  routes?: readonly Route[];
}

export class BrigadeStack extends Stack {
  readonly areaStacks: AreaStack[];

  constructor(scope: Construct, id: string, { settings, routes = routeTable, ...props }: BrigadeStackProps) {
    super(scope, id, props);
    assertUnique(routes);
    const { stage } = settings;
    const durability = durabilityOf(stage);
    const edge = edgeSettings(this.node, stage);
    const pipeline = pipelineSettings(this.node, stage);

    const table = new BrigadeTable(this, 'Table', durability);
    const api = new BrigadeApi(this, 'Api', {
      stage,
      durability,
      wafWindowSeconds: edge.waf.windowSeconds,
      tracing: settings.tracing,
    }).restApi;
    new EdgeFirewall(this, 'Edge', { stage, api, routes, limits: edge.waf });
    const usage = new UsageTiers(this, 'Usage', { api, stage, durability });

    /** What shared/config.ts reads; every function gets it. */
    const environment = {
      STAGE: stage,
      TABLE_NAME: table.tableName,
      NODE_OPTIONS: '--enable-source-maps',
      POWERTOOLS_SERVICE_NAME: 'brigade',
      INTERNAL_OPERATOR_IDS: settings.internalOperatorIds,
      JWKS_URL: settings.jwksUrl,
      JWT_ISSUER: settings.jwtIssuer,
      JWT_AUDIENCE: settings.jwtAudience,
      API_KEYS_PER_COMPANY: String(settings.apiKeysPerCompany),
      CORS_ORIGINS: settings.corsOrigins.join(','),
      // X-Ray (shared/runtime/tracing.ts): never the answers or errors, which carry guests' data.
      POWERTOOLS_TRACE_ENABLED: String(settings.tracing),
      POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
      POWERTOOLS_TRACER_CAPTURE_ERROR: 'false',
    };
    const credential = new CredentialAuthorizer(this, 'Credential', {
      stage,
      durability,
      table,
      environment,
      usageKeys: usage.keys,
      reservedConcurrency: edge.authorizerConcurrency,
    });

    const endpoints: EndpointSettings = {
      stage,
      durability,
      api,
      authorizer: credential.authorizer,
      table,
      manageKeysPolicy: usage.manageKeysPolicy,
      corsOrigins: settings.corsOrigins,
      apiKeyPepper: credential.apiKeyPepper,
      environment: {
        ...environment,
        // Where the api-keys operations attach a new merchant's usage key.
        USAGE_PLAN_IDS: this.toJsonString(
          Object.fromEntries(Object.entries(usage.plans).map(([tier, plan]) => [tier, plan.usagePlanId])),
        ),
      },
    };
    this.areaStacks = [...groupByArea(routes)].map(
      ([area, areaRoutes]) =>
        new AreaStack(this, `${pascalCase(area)}Routes`, {
          routes: areaRoutes,
          settings: endpoints,
          description: `Brigade ${stage}: ${area} operations`,
        }),
    );
    new FallbackStack(this, 'Fallback', {
      routes,
      settings: endpoints,
      description: `Brigade ${stage}: 404 and 405 answers`,
    });
    new WebhooksPipeline(this, 'WebhooksPipeline', {
      stage,
      durability,
      table,
      environment,
      settings: pipeline,
      description: `Brigade ${stage}: outbox to webhooks`,
    });
    new NoShowSweeper(this, 'NoShowSweeper', { stage, durability, table, environment });
    new PermissionCatalogSeed(this, 'PermissionCatalogSeed', {
      stage,
      durability,
      table,
      environment,
      description: `Brigade ${stage}: the built-in permission catalog, seeded at deploy`,
    });
    new Monitoring(this, 'Monitoring', {
      stage,
      alarmEmail: settings.alarmEmail,
      api,
      table,
      routes,
      authorizerFunctionName: credential.functionName,
      description: `Brigade ${stage}: alarm topic, API-wide alarms, dashboard`,
    });
  }
}

function groupByArea(routes: readonly Route[]): Map<string, Route[]> {
  const byArea = new Map<string, Route[]>();
  for (const route of routes) byArea.set(route.area, [...(byArea.get(route.area) ?? []), route]);
  return byArea;
}

/** Two rows for one operation id or one method and path would deploy, then fail in CloudFormation. */
function assertUnique(routes: readonly Route[]): void {
  for (const key of [(r: Route) => r.operationId, (r: Route) => `${r.method} ${r.path}`]) {
    const seen = new Set<string>();
    for (const route of routes) {
      if (seen.has(key(route))) throw new Error(`the route table lists ${key(route)} twice`);
      seen.add(key(route));
    }
  }
}
