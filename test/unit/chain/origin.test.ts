/** The origin step (shared/http/chain/origin.ts): a publishable key's web origins. */
import { describe, expect, it } from 'vitest';
import { origin } from '../../../shared/http/chain/origin';
import { chainRequest, principal } from '../../support/chain';

const publishable = principal({
  permissions: ['online_booking.read', 'online_booking.create'],
  allowedOrigins: ['https://bistro.example', 'http://127.0.0.1:8080'],
});

describe('origin', () => {
  const step = origin();

  it('refuses a publishable key from a page of another origin (403), with no origin allowed in the answer', () => {
    const request = chainRequest({ headers: { origin: 'https://elsewhere.example' } }, { principal: publishable });
    expect(() => step.before!(request)).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', message: expect.stringContaining('https://elsewhere.example') }),
    );
    expect(request.internal.brigade!.corsHeaders).toEqual({ Vary: 'Origin' });
  });

  it("names an allowed page's origin in the answer, so its browser lets it read it", () => {
    const request = chainRequest({ headers: { origin: 'http://127.0.0.1:8080' } }, { principal: publishable });
    expect(step.before!(request)).toBeUndefined();
    expect(request.internal.brigade!.corsHeaders).toMatchObject({
      'Access-Control-Allow-Origin': 'http://127.0.0.1:8080',
      Vary: 'Origin',
    });
  });

  it('lets a publishable key through without an Origin (an app or a server), headers untouched', () => {
    const request = chainRequest({ headers: {} }, { principal: publishable, corsHeaders: { Vary: 'Origin' } });
    expect(step.before!(request)).toBeUndefined();
    expect(request.internal.brigade!.corsHeaders).toEqual({ Vary: 'Origin' });
  });

  it('asks nothing of a secret key or an anonymous caller, whatever the origin', () => {
    const secret = chainRequest({ headers: { origin: 'https://elsewhere.example' } }, { principal: principal() });
    expect(step.before!(secret)).toBeUndefined();
    expect(step.before!(chainRequest({ headers: { origin: 'https://elsewhere.example' } }, {}))).toBeUndefined();
  });
});
