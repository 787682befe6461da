/**
 * The route table is the only list of operations: every row becomes exactly one function and
 * one method, with the row's method, path and access, in its area's nested stack.
 */
import { NestedStack, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { describe, expect, it } from 'vitest';
import { AreaStack } from '../../infra/area-stack';
import { routes, type Route } from '../../shared/routes';
import { synthesize, syntheticRoutes } from './synth';

const tables: [string, readonly Route[]][] = [
  ['the route table', routes],
  ['90 synthetic routes over 10 areas', syntheticRoutes()],
];

describe.each(tables)('%s', (_, table) => {
  const synth = synthesize({ routes: table });
  const areaStacks = synth.stack.areaStacks;
  const functionsOf = (stack: Stack) => synth.template(stack).findResources('AWS::Lambda::Function');
  // Operations' methods; the fallback's ANY methods are tested in fallback.test.ts.
  // The operations' methods: not the fallback's ANY, nor the preflights' OPTIONS (cors.test.ts).
  const methods = synth.stack.node
    .findAll()
    .filter(
      (c): c is apigw.Method => c instanceof apigw.Method && c.httpMethod !== 'ANY' && c.httpMethod !== 'OPTIONS',
    );
  const methodOf = (route: Route) =>
    methods.filter((m) => m.httpMethod === route.method && m.resource.path === route.path);

  it("has one nested stack per area, holding exactly that area's operations", () => {
    const areas = [...new Set(table.map((r) => r.area))];
    expect(areaStacks).toHaveLength(areas.length);
    for (const area of areas) {
      const stacks = new Set(table.filter((r) => r.area === area).map(areaStackOf));
      expect(stacks.size, area).toBe(1);
      expect(NestedStack.isNestedStack([...stacks][0])).toBe(true);
    }
  });

  it('gives every route exactly one function, in its area stack', () => {
    expect(areaStacks.flatMap((s) => Object.keys(functionsOf(s)))).toHaveLength(table.length);
    for (const route of table) {
      const stack = areaStackOf(route);
      const named = Object.values(functionsOf(stack)).filter(
        (f) => f.Properties.FunctionName === `brigade-dev-${route.operationId}`,
      );
      expect(named, route.operationId).toHaveLength(1);
    }
  });

  it('builds every function alike: Node.js 22 on arm64, 512 MB, 10 s, ESM bundle, explicit log group', () => {
    for (const stack of areaStacks) {
      for (const fn of Object.values(functionsOf(stack))) {
        expect(fn.Properties).toMatchObject({
          Runtime: 'nodejs22.x',
          Architectures: ['arm64'],
          Handler: 'index.handler',
          MemorySize: 512,
          Timeout: 10,
          LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
        });
        // The solver routes' functions name the solver layer's module besides (solver.test.ts).
        const solver = 'BRIGADE_SOLVER_MODULE' in fn.Properties.Environment.Variables ? ['BRIGADE_SOLVER_MODULE'] : [];
        // The functions that write key lookups get the API key pepper besides (which ones: api.test.ts).
        const pepper = 'API_KEY_PEPPER' in fn.Properties.Environment.Variables ? ['API_KEY_PEPPER'] : [];
        expect(Object.keys(fn.Properties.Environment.Variables).sort()).toEqual(
          [
            ...solver,
            ...pepper,
            'API_KEYS_PER_COMPANY',
            'CORS_ORIGINS',
            'INTERNAL_OPERATOR_IDS',
            'JWKS_URL',
            'JWT_AUDIENCE',
            'JWT_ISSUER',
            'NODE_OPTIONS',
            'POWERTOOLS_SERVICE_NAME',
            'POWERTOOLS_TRACE_ENABLED',
            'POWERTOOLS_TRACER_CAPTURE_ERROR',
            'POWERTOOLS_TRACER_CAPTURE_RESPONSE',
            'STAGE',
            'TABLE_NAME',
            'USAGE_PLAN_IDS',
          ].sort(),
        );
      }
      expect(Object.keys(synth.template(stack).findResources('AWS::Logs::LogGroup'))).toHaveLength(
        Object.keys(functionsOf(stack)).length,
      );
    }
  });

  it('gives every route exactly one method with its HTTP method and path, in its area stack', () => {
    expect(methods).toHaveLength(table.length);
    for (const route of table) {
      const found = methodOf(route);
      expect(found, `${route.method} ${route.path}`).toHaveLength(1);
      expect(Stack.of(found[0]!)).toBe(areaStackOf(route));
    }
  });

  it('puts the credential authorizer and an API key on every non-public method, and neither on public ones', () => {
    const authorizerId = { Ref: expect.stringMatching(/CredentialAuthorizer/) };
    for (const route of table) {
      const props = synth.resourceOf(methodOf(route)[0]!).Properties;
      if (route.permission === null) {
        expect(props, route.operationId).toMatchObject({ AuthorizationType: 'NONE', ApiKeyRequired: false });
        expect(props.AuthorizerId).toBeUndefined();
      } else {
        expect(props, route.operationId).toMatchObject({
          AuthorizationType: 'CUSTOM',
          ApiKeyRequired: true,
          AuthorizerId: authorizerId,
        });
      }
    }
  });

  it('integrates each method with its own function, which API Gateway may invoke for that method only', () => {
    for (const route of table) {
      const stack = areaStackOf(route);
      const [logicalId] = Object.entries(functionsOf(stack)).find(
        ([, f]) => f.Properties.FunctionName === `brigade-dev-${route.operationId}`,
      )!;
      const method = synth.resourceOf(methodOf(route)[0]!).Properties as { Integration: object };
      expect(method.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
      expect(JSON.stringify(method.Integration)).toContain(`"Fn::GetAtt":["${logicalId}","Arn"]`);

      const permissions = Object.values(synth.template(stack).findResources('AWS::Lambda::Permission')).filter(
        (p) => JSON.stringify(p.Properties.FunctionName) === JSON.stringify({ 'Fn::GetAtt': [logicalId, 'Arn'] }),
      );
      expect(permissions, route.operationId).toHaveLength(1);
      const sourceArn = JSON.stringify(permissions[0]!.Properties.SourceArn);
      expect(sourceArn).toContain(`/dev/${route.method}${route.path.replace(/\{[^}]+\}/g, '*')}"`);
    }
  });

  it('deploys the stage only after every area stack (its methods) exists', () => {
    const [deployment] = Object.values(synth.template(synth.stack).findResources('AWS::ApiGateway::Deployment'));
    for (const area of areaStacks) {
      expect(deployment!.DependsOn).toContain(synth.stack.getLogicalId(area.nestedStackResource!));
    }
  });

  /** The area stack that holds the route's endpoint (construct id = operationId). */
  function areaStackOf(route: Route): AreaStack {
    const found = areaStacks.filter((s) => s.node.tryFindChild(route.operationId));
    expect(found, route.operationId).toHaveLength(1);
    return found[0]!;
  }
});

describe('route table checks', () => {
  it('refuses two rows for one method and path', () => {
    const [first] = routes;
    expect(() => synthesize({ routes: [first, { ...first, operationId: 'again' }] })).toThrow(/twice/);
  });

  it('refuses a function name longer than Lambda allows', () => {
    const [first] = routes;
    expect(() => synthesize({ routes: [{ ...first, operationId: 'x'.repeat(60) }] })).toThrow(/longer than 64/);
  });
});
