/**
 * Checks an answer of the local stage against its operation's description in the route table, so
 * the description cannot drift from what the API sends: a success answer's `data` must match the
 * row's `schemas.response`. `call` (http.ts) runs every answer through it and throws on a mismatch,
 * naming the operation and the first errors.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { matchRoute } from '../../shared/http/router';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const compiled = new Map<string, ValidateFunction>();

/** How many answers were checked against a response schema, per operation (for the report). */
export const checkedAnswers = new Map<string, number>();

export function checkAnswer(method: string, url: string, status: number, body: unknown): void {
  if (status !== 200 || !isSuccess(body)) return;
  const match = matchRoute(method, new URL(url).pathname);
  if (match.kind !== 'route') return;
  const { route } = match;
  const schema = route.schemas.response;
  if (!schema) return;
  let validate = compiled.get(route.operationId);
  if (!validate) compiled.set(route.operationId, (validate = ajv.compile(schema)));
  if (!validate(body.data)) {
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    throw new Error(`${route.operationId}: the answer's data does not match its response schema:\n  ${errors.join('\n  ')}`);
  }
  checkedAnswers.set(route.operationId, (checkedAnswers.get(route.operationId) ?? 0) + 1);
}

const isSuccess = (body: unknown): body is { status: 'success'; data: unknown } =>
  typeof body === 'object' && body !== null && (body as { status?: unknown }).status === 'success';
