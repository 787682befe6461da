/**
 * What handler bundles get for `node:http` (the `alias` in infra/bundling.ts): the same functions,
 * loaded with require() instead of an ES module import.
 *
 * Why: importing `node:http` as an ES module makes Node build the module's namespace, which reads
 * every export, including the lazy getters `http.WebSocket`, `CloseEvent` and `MessageEvent` that
 * load Node's bundled undici (the fetch/WebSocket implementation). That cost 20-25 ms of every
 * cold start here (bench §3), for code no handler runs; @middy/util imports `STATUS_CODES` from
 * `node:http`, so every handler paid it. require() returns the CommonJS exports object, whose
 * getters stay untouched. Nothing imports this file by name; add an export here when a bundled
 * module imports another name from `node:http` (the bundle fails to build until then).
 */
import { createRequire } from 'node:module';

const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');

export const { STATUS_CODES, METHODS, Agent, globalAgent, request, get } = http;

/** Powertools Tracer's provider imports the module's default (its `http.request` is patched to trace calls). */
export default http;
