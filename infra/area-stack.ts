/**
 * One nested stack per route `area`: the area's functions, their log groups, invoke permissions
 * and methods (four resources per operation), and the roles they run with (data-access.ts: one for
 * the area, one for its public operations, one per permission the area singles out). Splitting by
 * area keeps every stack far below CloudFormation's 500 resources. The methods attach to API
 * resources (path segments) of the parent stack: a segment such as
 * `/api/v1/locations/{locationId}` serves several areas, and a resource must never move between
 * stacks when an area starts or stops using a segment.
 */
import { NestedStack, Stack, Validations, type NestedStackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { Route } from '../shared/routes';
import { accessOf, type RoleAccess } from './data-access';
import { HandlerFunction, operationFunctionName } from './handler-function';
import { HandlerRole } from './handler-role';
import type { DeployStage, Durability } from './settings';
import type { BrigadeTable } from './table';

/** What every operation's function and method share, built once in the parent stack. */
export interface EndpointSettings {
  stage: DeployStage;
  durability: Durability;
  api: apigw.RestApi;
  authorizer: apigw.IAuthorizer;
  table: BrigadeTable;
  /** For the roles that add merchants' usage keys to the tier plans (usage-tiers.ts). */
  manageKeysPolicy: iam.IManagedPolicy;
  environment: Record<string, string>;
  /** Browser origins the stage allows on operations that take a credential (shared/http/cors.ts). */
  corsOrigins: readonly string[];
  /** API_KEY_PEPPER (credential-authorizer.ts): given only to the functions that write key lookups. */
  apiKeyPepper: string;
}

/**
 * A function's environment: the stage's, and the API key pepper where its role writes key lookups
 * (a new key's verifier is written with it: shared/auth/verifier.ts).
 */
function environmentOf(settings: EndpointSettings, access: RoleAccess): Record<string, string> {
  const writesKeys = (access.grants.apiKeyLookups ?? []).includes('PutItem');
  return writesKeys ? { ...settings.environment, API_KEY_PEPPER: settings.apiKeyPepper } : settings.environment;
}

/** The role of some access in this stack, made once however many functions share it. */
export function roleFor(scope: Construct, settings: EndpointSettings, access: RoleAccess): iam.IRole {
  const id = `${pascalCase(access.name)}Role`;
  const existing = scope.node.tryFindChild(id);
  if (existing) return existing as HandlerRole;
  return new HandlerRole(scope, id, {
    table: settings.table,
    access,
    logGroupPrefix: `/aws/lambda/brigade-${settings.stage}-`,
    manageKeysPolicy: settings.manageKeysPolicy,
  });
}

export const pascalCase = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

export interface AreaStackProps extends NestedStackProps {
  routes: readonly Route[];
  settings: EndpointSettings;
}

export class AreaStack extends NestedStack {
  constructor(scope: Construct, id: string, { routes, settings, ...props }: AreaStackProps) {
    super(scope, id, props);
    for (const route of routes) new RouteEndpoint(this, route.operationId, { route, settings });
  }
}

/**
 * Public operations take no credential. Every other one goes through the authorizer and needs an
 * API key, which is what makes the usage plans meter it (the authorizer names the key).
 */
const methodOptionsOf = (route: Route, authorizer: apigw.IAuthorizer): apigw.MethodOptions =>
  route.permission === null
    ? { authorizationType: apigw.AuthorizationType.NONE, apiKeyRequired: false }
    : { authorizationType: apigw.AuthorizationType.CUSTOM, authorizer, apiKeyRequired: true };

/** Invoke permission path: API Gateway's method ARN writes path parameters as `*`. */
const arnPath = (path: string) => path.replace(/\{[^}]+\}/g, '*');

interface RouteEndpointProps {
  route: Route;
  settings: EndpointSettings;
}

/** One operation: its function, the API's permission to invoke it, and its method. */
class RouteEndpoint extends Construct {
  constructor(scope: Construct, id: string, { route, settings }: RouteEndpointProps) {
    super(scope, id);
    const { api, stage } = settings;
    const access = accessOf(route);
    const handler = new HandlerFunction(this, 'Handler', {
      entry: route.handler,
      functionName: operationFunctionName(stage, route.operationId),
      role: roleFor(Stack.of(this), settings, access),
      environment: environmentOf(settings, access),
      durability: settings.durability,
      solver: route.solver === true,
    });
    // One permission, for this method on this stage. (LambdaIntegration would scope its
    // permission with a reference to the Stage, which depends on these stacks: a cycle.)
    handler.function.addPermission('ApiInvoke', {
      principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: api.arnForExecuteApi(route.method, arnPath(route.path), stage),
    });

    const method = new apigw.Method(this, 'Method', {
      resource: api.root.resourceForPath(route.path),
      httpMethod: route.method,
      integration: new apigw.AwsIntegration({
        proxy: true,
        service: 'lambda',
        path: `2015-03-31/functions/${handler.function.functionArn}/invocations`,
      }),
      options: { operationName: route.operationId, ...methodOptionsOf(route, settings.authorizer) },
    });

    Validations.of(method).acknowledge({
      id: 'AwsSolutions-COG4',
      reason:
        'Credentials are Brigade API keys (bcrypt) and JWTs from the configured JWKS, verified by the Lambda REQUEST authorizer; there is no Cognito user pool.',
    });
    if (route.permission === null) {
      Validations.of(method).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason: `${route.operationId} is public by contract (docs/conventions.md: by-code operations, RSVP, health probes); its handler still rate-limits per client IP.`,
      });
    }
  }
}
