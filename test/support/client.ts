/**
 * The typed client of the API tests (docs/openapi.md, "A typed client"): openapi-fetch over the
 * types openapi-typescript made from the OpenAPI document (`npm run gen:operations` writes them to
 * shared/openapi/generated/api-types.ts). Paths, path and query parameters, request bodies and the
 * success envelope's `data` are the document's, so a wrong path, a missing parameter, a misspelt
 * body field or a field `data` does not have is a compile error, and a changed schema breaks the
 * tests that use it (test/unit/typed-client.test.ts proves it). Every answer is checked against
 * the document as `call()` checks it (test/support/answers.ts), and throws in the test that got it.
 *
 *   const api = apiClient({ key });
 *   const made = await api.POST('/api/v1/locations', { body: { name: 'Bistro', timezone: 'Europe/Stockholm', operatingHours: {} } });
 *   const location = dataOf(made); // the `data` of the 200, typed; fails the test on any other status
 *
 * A request the types forbid (a 400 case's invalid body) goes through `call()` (http.ts).
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { expect } from 'vitest';
import type { components, paths } from '../../shared/openapi/generated/api-types';
import { assertAnswer } from './answers';
import { devKeys, type Answer } from './http';

export type Api = Client<paths>;
/** The document's named schemas: `Schemas['Booking']` is a booking as the API answers it. */
export type Schemas = components['schemas'];

/** Who calls: an API key (`X-API-Key`), a JWT (`Authorization: Bearer`), or nobody (public operations). */
export interface Credential {
  key?: string;
  token?: string;
}

/** Sends the client's credential with each request. */
const credentialOf = ({ key, token }: Credential): Middleware => ({
  onRequest({ request }) {
    if (key) request.headers.set('X-API-Key', key);
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
});

/** Checks each answer against the document before the test sees it, as `call()` does (a JSON body parsed, another given as its text). */
const answerCheck: Middleware = {
  async onResponse({ request, response }) {
    const text = await response.clone().text();
    const json = /^application\/([\w.+-]+\+)?json\b/.test(response.headers.get('content-type') ?? '');
    assertAnswer(
      request.method,
      request.url,
      response.status,
      response.headers,
      text && json ? JSON.parse(text) : text || undefined,
    );
    return response;
  },
};

/** A client of the local stage acting as `credential` (none: a public caller). */
export function apiClient(credential: Credential = {}): Api {
  const api = createClient<paths>({ baseUrl: devKeys().baseUrl });
  api.use(credentialOf(credential), answerCheck);
  return api;
}

/** What a client method answers, whatever the operation: its parsed body as `data` (2xx) or `error`. */
export interface Result<Data = unknown> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** The body of a success answer (the envelope: `data`, `meta`), typed by its operation; fails the test, showing the body, on any status but 200. */
export function successOf<T>(result: Result<T>): T {
  expect(result.response.status, JSON.stringify(result.error ?? result.data)).toBe(200);
  return result.data!;
}

/** The `data` of a success answer, typed by its operation; fails the test, showing the body, on any status but 200. */
export const dataOf = <T>(result: Result<{ data: T }>): T => successOf(result).data;

/** An operation's JSON request body: `BodyOf<'/api/v1/companies', 'post'>` is `{ name: string }`. */
export type BodyOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** An operation's query parameters. */
export type QueryOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

/** The body of an operation's 200: the success envelope (`data`, `meta`). */
export type SuccessOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer S } } };
}
  ? S
  : never;

/** The type of the `data` of an operation's 200: `DataOf<'/api/v1/companies', 'post'>` is a company. */
export type DataOf<P extends keyof paths, M extends keyof paths[P]> =
  SuccessOf<P, M> extends { data: infer D } ? D : never;

/** The result as `call()` answers (status, headers, body): for the helpers that take an `Answer`, such as `expectRefused`. */
export const answerOf = (result: Result): Answer => ({
  status: result.response.status,
  headers: result.response.headers,
  body: result.data ?? result.error,
});
