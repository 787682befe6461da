/**
 * Requests that match no operation still get the contract's envelope: ANY on every resource
 * reaches the fallback function (405 for a known path), and `/{proxy+}` catches unknown paths (404).
 */
import { NestedStack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { describe, expect, it } from 'vitest';
import { resourcePaths } from '../../infra/fallback-stack';
import { routes } from '../../shared/routes';
import { synthesize } from './synth';

describe('fallback answers', () => {
  const synth = synthesize();
  const fallback = synth.stacks.find((s) => NestedStack.isNestedStack(s) && s.node.id === 'Fallback')!;
  const anyMethods = fallback.node
    .findAll()
    .filter((c): c is apigw.Method => c instanceof apigw.Method && c.httpMethod === 'ANY');

  it('lists every route path and each of its prefixes', () => {
    expect(resourcePaths([{ ...routes[0], path: '/api/v1/coursings/{id}' }])).toEqual([
      '/',
      '/api',
      '/api/v1',
      '/api/v1/coursings',
      '/api/v1/coursings/{id}',
    ]);
  });

  it('puts a public ANY on every resource of the API and a greedy proxy at the root', () => {
    const paths = anyMethods.map((m) => m.resource.path).sort();
    expect(paths).toEqual([...resourcePaths(routes), '/{proxy+}'].sort());
    for (const m of anyMethods) {
      expect(m.httpMethod).toBe('ANY');
      expect(synth.resourceOf(m).Properties).toMatchObject({ AuthorizationType: 'NONE', ApiKeyRequired: false });
    }
  });

  it('serves them all from one function, built from functions/fallback.ts', () => {
    const functions = synth.template(fallback).findResources('AWS::Lambda::Function');
    expect(Object.values(functions).map((f) => f.Properties.FunctionName)).toEqual(['brigade-dev-fallback']);
    const integrationUris = new Set(
      anyMethods.map((m) => JSON.stringify((synth.resourceOf(m).Properties.Integration as { Uri: unknown }).Uri)),
    );
    expect(integrationUris.size).toBe(1);
  });

  it('leaves every operation on its own method (a specific method wins over ANY)', () => {
    const operationMethods = synth.stack.node
      .findAll()
      .filter(
        (c): c is apigw.Method => c instanceof apigw.Method && c.httpMethod !== 'ANY' && c.httpMethod !== 'OPTIONS',
      );
    expect(operationMethods).toHaveLength(routes.length);
  });
});
