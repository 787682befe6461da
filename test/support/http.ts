/** A small client for the API tests: JSON in, status + headers + parsed envelope out. */
import { randomInt } from 'node:crypto';
import { request } from 'node:http';
import { inject } from 'vitest';
import type { WebhookDelivery } from '../../shared/data/webhookDeliveries';
import { assertAnswer } from './answers';

export const devKeys = () => inject('devKeys');
export const company = (n: 1 | 2) => devKeys().companies[n - 1]!;

/**
 * The parsed JSON of an answer whose type the test does not name: the API tests read some 900
 * answers as `out.body.data.…` without declaring each shape. Each such answer is still checked at
 * run time against its route's response schema (`assertAnswer`); a test that wants the compiler's
 * help passes `T` (`call<{ data: Schemas['Booking'] }>`) or uses the typed client (client.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read untyped by the API tests; checked at run time against the route's response schema (assertAnswer)
export type UntypedJson = any;

export interface Answer<T = UntypedJson> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * A client address of its own: a random loopback address (127.0.0.0/8), which the local stage sees
 * as the connection's peer (its `sourceIp`). Per-IP windows of requests sent `from` it are the
 * test's alone, unlike 127.0.0.1's, which every API file's anonymous requests share.
 */
export const newClientAddress = (): string => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** Sends from `localAddress` (node:http: fetch cannot choose the address it connects from). */
function sendFrom(
  localAddress: string,
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const answered = new Headers();
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) answered.set(k, Array.isArray(v) ? v.join(', ') : v);
        resolve({ status: res.statusCode ?? 0, headers: answered, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function call<T = UntypedJson>(
  method: string,
  path: string,
  options: {
    key?: string;
    token?: string;
    body?: unknown;
    rawBody?: string | Uint8Array;
    headers?: Record<string, string>;
    /** The client address to connect from (`newClientAddress`); 127.0.0.1 without it. */
    from?: string;
  } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['X-API-Key'] = options.key;
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const url = `${devKeys().baseUrl}${path}`;
  let res: { status: number; headers: Headers; text: string };
  if (options.from) res = await sendFrom(options.from, url, method, headers, body);
  else {
    const fetched = await fetch(url, { method, headers, body });
    res = { status: fetched.status, headers: fetched.headers, text: await fetched.text() };
  }
  const parsed = res.text ? JSON.parse(res.text) : undefined;
  assertAnswer(method, url, res.status, res.headers, parsed);
  return { status: res.status, headers: res.headers, body: parsed };
}

/**
 * The delivery as stored once the stage's webhook pipeline has recorded its latest attempt and it
 * waits for nothing (delivered, dead, cancelled, or failed with its next attempt not yet due):
 * `LocalPipeline.settled()`, through the door test/support/local-stage-setup.ts opens. An event to
 * await, where a test would otherwise poll the attempts list.
 */
export async function settledDelivery(companyId: number, deliveryId: string): Promise<WebhookDelivery | null> {
  const res = await fetch(`${inject('pipelineDoor')}/deliveries/${companyId}/${deliveryId}/settled`);
  if (!res.ok) throw new Error(`the pipeline door answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as WebhookDelivery | null;
}

/**
 * Runs `run` until one run's answers all fall in one rate window. The window is the clock hour and
 * each answer names it (X-RateLimit-Reset): a run the hour cut in two is done again, rather than
 * waiting for a quiet moment to start. A second run cannot be cut too unless it lasts an hour, so
 * two cut runs in a row fail. `run` must start afresh each time (a new key: a fresh window).
 */
export async function inOneRateWindow<T extends { answers: Answer[] }>(run: () => Promise<T>): Promise<T> {
  const windows = (r: T) => new Set(r.answers.map((a) => a.headers.get('x-ratelimit-reset'))).size;
  const first = await run();
  if (windows(first) === 1) return first;
  const second = await run();
  if (windows(second) !== 1) throw new Error('two runs in a row spanned two rate windows');
  return second;
}
