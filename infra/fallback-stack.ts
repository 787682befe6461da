/**
 * Answers for requests that match no operation, in the contract's envelope: `ANY` on every API
 * resource (so a known path with another method reaches functions/fallback.ts, which answers 405
 * with `Allow`) and a greedy `/{proxy+}` at the root (unknown paths: 404). Specific methods always
 * win over `ANY` in API Gateway, so operations are unaffected. One function serves them all, with
 * a role that may only count the request and verify a presented credential (data-access.ts).
 * Browsers' preflights (OPTIONS) get MOCK methods of their own here too (cors.ts).
 */
import { NestedStack, Validations, type NestedStackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { Route } from '../shared/routes';
import { roleFor, type EndpointSettings } from './area-stack';
import { fallbackAccess } from './data-access';
import { HandlerFunction } from './handler-function';
import { addPreflights } from './cors';

export interface FallbackStackProps extends NestedStackProps {
  routes: readonly Route[];
  settings: EndpointSettings;
}

/** Every path the API has a resource for: each route's path and all its prefixes, root included. */
export function resourcePaths(routes: readonly Route[]): string[] {
  const paths = new Set<string>(['/']);
  for (const { path } of routes) {
    const parts = path.split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) paths.add(`/${parts.slice(0, i).join('/')}`);
  }
  return [...paths].sort();
}

export class FallbackStack extends NestedStack {
  constructor(scope: Construct, id: string, { routes, settings, ...props }: FallbackStackProps) {
    super(scope, id, props);
    const { api, stage } = settings;
    const handler = new HandlerFunction(this, 'Handler', {
      entry: 'functions/fallback.ts',
      functionName: `brigade-${stage}-fallback`,
      role: roleFor(this, settings, fallbackAccess),
      environment: settings.environment,
      durability: settings.durability,
    });
    handler.function.addPermission('ApiInvoke', {
      principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: api.arnForExecuteApi('*', '/*', stage),
    });
    const integration = new apigw.AwsIntegration({
      proxy: true,
      service: 'lambda',
      path: `2015-03-31/functions/${handler.function.functionArn}/invocations`,
    });

    for (const path of [...resourcePaths(routes), '/{proxy+}']) {
      const method = new apigw.Method(this, `Any${path}`, {
        resource: path === '/' ? api.root : api.root.resourceForPath(path),
        httpMethod: 'ANY',
        integration,
        options: { authorizationType: apigw.AuthorizationType.NONE, apiKeyRequired: false, operationName: 'fallback' },
      });
      Validations.of(method).acknowledge(
        {
          id: 'AwsSolutions-APIG4',
          reason:
            'The fallback only answers 404 or 405 in the contract envelope (rate-limited per client IP); it reads and writes no data.',
        },
        {
          id: 'AwsSolutions-COG4',
          reason:
            'The fallback serves no operation, so it takes no credential; operations use the Lambda REQUEST authorizer.',
        },
      );
    }
    // Browsers' preflights: answered by API Gateway beside the ANY methods (a specific method wins).
    addPreflights(this, api, routes, settings.corsOrigins);
  }
}
