/** Matches a method and path against the route table, the way API Gateway does. */
import { routes, type HttpMethod, type Route } from '../routes';

interface Compiled {
  route: Route;
  pattern: RegExp;
  params: string[];
}

const compiled: Compiled[] = (routes as readonly Route[]).map((route) => {
  const params: string[] = [];
  const source = route.path
    .split('/')
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      params.push(m[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), params };
});

export type Match =
  | { kind: 'route'; route: Route; pathParameters: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: HttpMethod[] }
  | { kind: 'not-found' };

export function matchRoute(method: string, path: string): Match {
  const allowed: HttpMethod[] = [];
  for (const c of compiled) {
    const m = c.pattern.exec(path);
    if (!m) continue;
    if (c.route.method !== method) {
      allowed.push(c.route.method);
      continue;
    }
    let pathParameters: Record<string, string>;
    try {
      pathParameters = Object.fromEntries(c.params.map((name, i) => [name, decodeURIComponent(m[i + 1]!)]));
    } catch {
      return { kind: 'not-found' }; // malformed percent-encoding names no resource
    }
    return { kind: 'route', route: c.route, pathParameters };
  }
  return allowed.length ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
}

/**
 * The API resource (path template) a path falls on, as API Gateway picks one: of the templates
 * the path matches, the one with the fewest parameters (a literal segment wins over `{id}`).
 * The local edge answers a browser's preflight by it (bin/local/server.ts).
 */
export function resourceOf(path: string): string | undefined {
  let best: Compiled | undefined;
  for (const c of compiled) if (c.pattern.test(path) && (!best || c.params.length < best.params.length)) best = c;
  return best?.route.path;
}
