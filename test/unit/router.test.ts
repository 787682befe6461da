import { describe, expect, it } from 'vitest';
import { matchRoute, resourceOf } from '../../shared/http/router';
import { routes } from '../../shared/routes';

describe('router', () => {
  it('matches every route of the table by its own method and path', () => {
    for (const r of routes) {
      const path = r.path.replace(/\{(\w+)\}/g, 'x1');
      const m = matchRoute(r.method, path);
      expect(m.kind, `${r.method} ${r.path}`).toBe('route');
      if (m.kind === 'route') expect(m.route.operationId).toBe(r.operationId);
    }
  });

  it('extracts and decodes path parameters', () => {
    const m = matchRoute('PUT', '/api/v1/coursings/a%20b');
    expect(m).toMatchObject({ kind: 'route', pathParameters: { id: 'a b' } });
  });

  it('answers method-not-allowed with the methods the path has', () => {
    expect(matchRoute('DELETE', '/api/v1/coursings')).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'POST'] });
  });

  it('answers not-found for unknown paths, trailing segments and bad encodings', () => {
    expect(matchRoute('GET', '/api/v1/nothing')).toEqual({ kind: 'not-found' });
    expect(matchRoute('GET', '/api/v1/coursings/x/y/z')).toEqual({ kind: 'not-found' });
    expect(matchRoute('PUT', '/api/v1/coursings/%E0%A4%A')).toEqual({ kind: 'not-found' });
  });

  it('names the resource a path falls on as API Gateway picks it: a literal segment over a parameter', () => {
    expect(resourceOf('/api/v1/bookings/rsvp')).toBe('/api/v1/bookings/rsvp');
    expect(resourceOf('/api/v1/bookings/b-1')).toBe('/api/v1/bookings/{id}');
    expect(resourceOf('/api/v1/nothing')).toBeUndefined();
  });
});
