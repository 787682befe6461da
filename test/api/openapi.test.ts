/**
 * GET /openapi.json: public, a valid OpenAPI 3.1 document, and exactly the one the generator builds
 * from the route table (so a served copy that lags the table fails here), with the rate-limit
 * headers of every answer. Fetched with the typed client (test/support/client.ts), whose types are
 * made from that same document.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { API_VERSION } from '../../shared/config';
import { openApiDocument } from '../../shared/openapi/document';
import { apiClient } from '../support/client';
import { devKeys } from '../support/http';

describe('the OpenAPI document', () => {
  it('is served without a credential, equal to what the generator builds from the route table', async () => {
    const out = await apiClient().GET('/openapi.json');
    expect(out.response.status).toBe(200);
    expect(out.response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(out.response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(out.data).toEqual(openApiDocument());
    const validator = new Validator();
    expect(await validator.validate(out.data as Parameters<Validator['validate']>[0])).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
  });

  it('is served to a caller with a key too, and a bad key is refused as anywhere', async () => {
    const withKey = await apiClient({ key: devKeys().companies[0]!.keys.readonly }).GET('/openapi.json');
    expect(withKey.response.status).toBe(200);
    expect(withKey.data?.info.version).toBe(API_VERSION);
    const bad = await apiClient({ key: 'brigade_dev_aaaaaaaaaaaa_not-a-secret' }).GET('/openapi.json');
    expect(bad.response.status).toBe(401);
    expect(bad.error?.error.code).toBe('UNAUTHENTICATED');
  });
});

describe('the typed client', () => {
  it('checks each answer against the document as call() does: one that does not match throws in the test', async () => {
    // an answer with every header, whose body lacks the document's `paths`, in place of the stage's
    const headers = {
      'content-type': 'application/json',
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '99',
      'x-ratelimit-reset': '0',
      'x-request-id': 'forged',
    };
    const forged = async () =>
      new Response(JSON.stringify({ openapi: '3.1.0', info: { title: 'Brigade API', version: API_VERSION } }), {
        status: 200,
        headers,
      });
    await expect(apiClient().GET('/openapi.json', { fetch: forged })).rejects.toThrow(
      /^getOpenApiDocument \(GET \/openapi.json\): the 200 answer does not match its description/,
    );
    // the same request answered by the stage passes
    expect((await apiClient().GET('/openapi.json')).response.status).toBe(200);
  });
});
