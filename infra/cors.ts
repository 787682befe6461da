/**
 * Browser preflights (OPTIONS), answered by API Gateway itself: a MOCK integration per API path
 * that has a public operation, or an operation with a credential when the stage lists origins
 * (`corsOrigins`). No function runs and no authorizer is in front: a preflight carries no
 * credential. What each answers comes from shared/http/cors.ts, which the local edge answers
 * preflights with too.
 *
 * A path whose methods all take a credential answers, to an origin the stage does not list, with
 * the first listed origin (CDK's `addCorsPreflight` does the same): the browser sees its own origin
 * is not the one allowed and refuses, as it does when the local edge leaves the header out.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { Validations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { corsPaths, hasPreflight, preflight, type CorsPath } from '../shared/http/cors';
import type { Route } from '../shared/routes';

/** The VTL that echoes a listed origin, with the methods it may call (`$context.responseOverride`). */
function listedOriginTemplate(path: CorsPath, origins: readonly string[]): string {
  const listed = preflight(path, origins[0], origins);
  return [
    '#set($origin = $input.params().header.get("Origin"))',
    '#if($origin == "")',
    '  #set($origin = $input.params().header.get("origin"))',
    '#end',
    `#if(${origins.map((o) => `$origin == "${o}"`).join(' || ')})`,
    '  #set($context.responseOverride.header.Access-Control-Allow-Origin = $origin)',
    `  #set($context.responseOverride.header.Access-Control-Allow-Methods = "${listed['Access-Control-Allow-Methods']}")`,
    '#end',
  ].join('\n');
}

/** The static headers of a path's preflight answer: what an origin not listed gets (see above). */
function staticPreflightHeaders(path: CorsPath, origins: readonly string[]): Record<string, string> {
  const unlisted = preflight(path, undefined, origins);
  return unlisted['Access-Control-Allow-Origin'] ? unlisted : preflight(path, origins[0], origins);
}

/** One OPTIONS method per path that answers preflights, in `scope` (the fallback's stack). */
export function addPreflights(
  scope: Construct,
  api: apigw.RestApi,
  routes: readonly Route[],
  origins: readonly string[],
): apigw.Method[] {
  return corsPaths(routes)
    .filter((path) => hasPreflight(path, origins))
    .map((path) => {
      const headers = staticPreflightHeaders(path, origins);
      const keyed = path.keyedMethods.length > 0 && origins.length > 0;
      const parameters = (value: (v: string) => string | boolean) =>
        Object.fromEntries(Object.entries(headers).map(([name, v]) => [`method.response.header.${name}`, value(v)]));
      const method = new apigw.Method(scope, `Options${path.path}`, {
        resource: api.root.resourceForPath(path.path),
        httpMethod: 'OPTIONS',
        integration: new apigw.MockIntegration({
          requestTemplates: { 'application/json': '{ "statusCode": 204 }' },
          integrationResponses: [
            {
              statusCode: '204',
              // API Gateway reads a header value as a mapping expression: a literal is quoted.
              responseParameters: parameters((v) => `'${v}'`) as Record<string, string>,
              ...(keyed && { responseTemplates: { 'application/json': listedOriginTemplate(path, origins) } }),
            },
          ],
        }),
        options: {
          authorizationType: apigw.AuthorizationType.NONE,
          apiKeyRequired: false,
          operationName: 'preflight',
          methodResponses: [
            { statusCode: '204', responseParameters: parameters(() => true) as Record<string, boolean> },
          ],
        },
      });
      Validations.of(method).acknowledge(
        {
          id: 'AwsSolutions-APIG4',
          reason:
            'A CORS preflight carries no credential by the Fetch standard; API Gateway answers it itself (MOCK) and no function or data is reached.',
        },
        {
          id: 'AwsSolutions-COG4',
          reason: 'A CORS preflight carries no credential; operations use the Lambda REQUEST authorizer.',
        },
      );
      return method;
    });
}
