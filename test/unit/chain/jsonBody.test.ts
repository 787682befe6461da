/** The body step (shared/http/chain/jsonBody.ts): absent, too large, not JSON, or parsed. */
import { describe, expect, it } from 'vitest';
import { asAppError } from '../../../shared/http/chain/errors';
import { jsonBody, MAX_BODY_BYTES } from '../../../shared/http/chain/jsonBody';
import type { HttpEvent } from '../../../shared/http/chain/state';
import { chainRequest } from '../../support/chain';

const json = { 'content-type': 'application/json' };
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const run = (event: Partial<HttpEvent>) => {
  const request = chainRequest({ httpMethod: 'POST', headers: json, ...event }, {});
  jsonBody().before!(request);
  return request.event.body;
};
const refusal = (event: Partial<HttpEvent>) => {
  try {
    run(event);
  } catch (err) {
    return asAppError(err, 'req-1');
  }
  throw new Error('the body was accepted');
};

describe('jsonBody', () => {
  it('parses JSON, with a charset too, and decodes a base64 body as API Gateway hands it over', () => {
    expect(run({ body: '{"title":"Mains"}' })).toEqual({ title: 'Mains' });
    expect(run({ body: '{"a":1}', headers: { 'content-type': 'application/json; charset=utf-8' } })).toEqual({ a: 1 });
    expect(run({ body: base64('{"title":"Smårätter"}'), isBase64Encoded: true })).toEqual({ title: 'Smårätter' });
  });

  it('takes an empty body for an absent one', () => {
    expect(run({ body: null })).toBeUndefined();
    expect(run({ body: '' })).toBeUndefined();
  });

  it("never reads a GET's body, whatever it is", () => {
    expect(
      run({ httpMethod: 'GET', body: 'x'.repeat(MAX_BODY_BYTES + 1), headers: { 'content-type': 'text/plain' } }),
    ).toBe(undefined);
  });

  it('answers 413 over 256 KiB decoded, before parsing; base64 text may be longer', () => {
    expect(refusal({ body: `"${'x'.repeat(MAX_BODY_BYTES)}"` })).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      status: 413,
    });
    const nearLimit = JSON.stringify({ title: 'x'.repeat(250 * 1024) });
    expect(base64(nearLimit).length).toBeGreaterThan(MAX_BODY_BYTES);
    expect(run({ body: base64(nearLimit), isBase64Encoded: true })).toMatchObject({ title: expect.any(String) });
  });

  it('answers 415 for another media type and 400 for malformed JSON', () => {
    expect(
      refusal({ body: 'title=Mains', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    ).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
    expect(refusal({ body: '{"title": ' })).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
  });

  it('refuses a body whose bytes are not UTF-8 (400), rather than parse U+FFFD in their place; 415 still comes first', () => {
    const bytes = (...parts: (string | number[])[]) =>
      Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p)))).toString(
        'base64',
      );
    for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
      expect(refusal({ body: bytes('{"name":"Ada', bad, '"}'), isBase64Encoded: true })).toMatchObject({
        code: 'VALIDATION_FAILED',
        status: 400,
        message: 'The body is not valid UTF-8',
        details: [{ path: '/', message: expect.stringContaining('UTF-8') }],
      });
    }
    expect(run({ body: bytes('{"name":"Åsa ', [0xf0, 0x9f, 0x8d, 0xb7], '"}'), isBase64Encoded: true })).toEqual({
      name: 'Åsa 🍷',
    });
    expect(
      refusal({ body: bytes('x', [0xff]), isBase64Encoded: true, headers: { 'content-type': 'text/plain' } }),
    ).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });
});
