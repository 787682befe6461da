/**
 * CORS in the template (infra/cors.ts, infra/gateway-responses.ts): preflights answered by API
 * Gateway (MOCK, no authorizer) with the headers shared/http/cors.ts gives the local edge too; the
 * origins setting; the gateway's own answers readable by a browser.
 */
import { describe, expect, it } from 'vitest';
import { corsPaths, hasPreflight, preflight } from '../../shared/http/cors';
import { routes } from '../../shared/routes';
import { synthesize, type TemplateResource } from './synth';

type Resource = TemplateResource;

const ORIGINS = ['https://app.example.com', 'http://localhost:5173'];

function preflightsOf(context: Record<string, unknown> = {}) {
  const synth = synthesize({ context });
  const fallback = synth.stacks.find((s) => s.node.id === 'Fallback')!;
  const all = synth.template(fallback).toJSON().Resources as Record<string, Resource>;
  const options = Object.values(all).filter(
    (r) => r.Type === 'AWS::ApiGateway::Method' && r.Properties.HttpMethod === 'OPTIONS',
  );
  const parent = synth.template(synth.stack).toJSON().Resources as Record<string, Resource>;
  return { synth, options, parent };
}

/** A method's answer headers, as a browser would get them from the template. */
const headersOf = (method: Resource) =>
  Object.fromEntries(
    Object.entries(
      method.Properties.Integration.IntegrationResponses[0].ResponseParameters as Record<string, string>,
    ).map(([k, v]) => [k.replace('method.response.header.', ''), v.replace(/^'|'$/g, '')]),
  );

describe('preflights on a stage without origins (the default)', () => {
  const { options } = preflightsOf();
  const paths = corsPaths(routes);

  it('are answered by API Gateway itself on every path with a public operation (the OpenAPI document included), with no credential', () => {
    const publicPaths = paths.filter((p) => hasPreflight(p, []));
    expect(publicPaths.map((p) => p.path)).toEqual(
      expect.arrayContaining(['/openapi.json', '/api/v1/bookings/rsvp', '/health']),
    );
    expect(options).toHaveLength(publicPaths.length);
    for (const method of options) {
      expect(method.Properties).toMatchObject({
        AuthorizationType: 'NONE',
        ApiKeyRequired: false,
        Integration: { Type: 'MOCK' },
      });
      expect(method.Properties.MethodResponses[0].StatusCode).toBe('204');
    }
  });

  it('answer with the headers shared/http/cors.ts gives the local edge: any origin, the public methods, the request headers, a max age', () => {
    const expected = new Set(
      paths.filter((p) => hasPreflight(p, [])).map((p) => JSON.stringify(preflight(p, 'https://anywhere.example', []))),
    );
    const got = new Set(options.map((m) => JSON.stringify(headersOf(m))));
    expect(got).toEqual(expected);
    for (const m of options) {
      const h = headersOf(m);
      expect(h['Access-Control-Allow-Origin']).toBe('*');
      expect(h['Access-Control-Allow-Headers']!.split(',')).toEqual(
        expect.arrayContaining(['Content-Type', 'Idempotency-Key', 'X-API-Key', 'Authorization']),
      );
      expect(Number(h['Access-Control-Max-Age'])).toBeGreaterThan(0);
    }
  });

  it('tell the functions no origin (CORS_ORIGINS empty)', () => {
    const { synth } = preflightsOf();
    const fn = Object.values(synth.template(synth.stack.areaStacks[0]!).findResources('AWS::Lambda::Function'))[0]!;
    expect(fn.Properties.Environment.Variables.CORS_ORIGINS).toBe('');
  });
});

describe('preflights on a stage that lists origins', () => {
  const { options, synth } = preflightsOf({ corsOrigins: ORIGINS.join(',') });

  it('are answered on every path, keyed operations included, echoing a listed origin with its methods and Vary: Origin', () => {
    expect(options).toHaveLength(corsPaths(routes).length);
    const keyedOnly = corsPaths(routes).find((p) => p.path === '/api/v1/bookings')!;
    const listed = preflight(keyedOnly, ORIGINS[1], ORIGINS);
    expect(listed).toMatchObject({ 'Access-Control-Allow-Origin': ORIGINS[1], Vary: 'Origin' });
    expect(listed['Access-Control-Allow-Methods']!.split(',').sort()).toEqual(['GET', 'OPTIONS', 'POST']);
    const templates = options.flatMap(
      (m) => m.Properties.Integration.IntegrationResponses[0].ResponseTemplates?.['application/json'] ?? [],
    ) as string[];
    // one per path with an operation that takes a credential; public-only paths answer `*` statically
    expect(templates).toHaveLength(corsPaths(routes).filter((p) => p.keyedMethods.length > 0).length);
    expect(
      templates.every(
        (t) =>
          ORIGINS.every((o) => t.includes(`$origin == "${o}"`)) &&
          t.includes('responseOverride.header.Access-Control-Allow-Origin = $origin'),
      ),
    ).toBe(true);
    expect(
      templates.some((t) => t!.includes(`Access-Control-Allow-Methods = "${listed['Access-Control-Allow-Methods']}"`)),
    ).toBe(true);
    for (const m of options)
      expect(headersOf(m).Vary).toBe(
        m.Properties.Integration.IntegrationResponses[0].ResponseTemplates ? 'Origin' : undefined,
      );
  });

  it('tell the functions the origins, for their answers', () => {
    const fn = Object.values(synth.template(synth.stack.areaStacks[0]!).findResources('AWS::Lambda::Function'))[0]!;
    expect(fn.Properties.Environment.Variables.CORS_ORIGINS).toBe(ORIGINS.join(','));
  });

  it.each(['*', 'https://app.example.com/', 'app.example.com', 'https://App.example.com'])(
    'refuse -c corsOrigins=%s',
    (origin) => {
      expect(() => synthesize({ context: { corsOrigins: origin } })).toThrow(/not an origin/);
    },
  );
});

describe("API Gateway's own answers", () => {
  it('can be read by a browser page of any origin (a 401 or a 429 is not a network failure)', () => {
    const { parent } = preflightsOf();
    const responses = Object.values(parent).filter((r) => r.Type === 'AWS::ApiGateway::GatewayResponse');
    expect(responses.length).toBeGreaterThan(10);
    for (const r of responses) {
      expect(r.Properties.ResponseParameters, r.Properties.ResponseType).toMatchObject({
        'gatewayresponse.header.Access-Control-Allow-Origin': "'*'",
      });
    }
  });
});
