/** One webhook POST against receivers on loopback: statuses, redirects, timeouts, aborts, refused addresses. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../shared/webhooks/send';
import { guardedLookup } from '../../shared/webhooks/urlPolicy';
import { Changes } from '../support/changes';

let server: Server;
let base: string;
const received: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];
const arrivals = new Changes();
/** Answers /held keeps back until the end of the file: a receiver that never answers in time. */
const held: ServerResponse[] = [];

const routes: Record<string, (res: ServerResponse) => void> = {
  '/ok': (res) => res.writeHead(204).end(),
  '/accepted': (res) => res.writeHead(202).end('queued'),
  '/fail': (res) => res.writeHead(503).end(),
  '/moved': (res) => res.writeHead(302, { Location: '/ok' }).end(),
  '/held': (res) => held.push(res),
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url!, headers: req.headers, body });
      arrivals.changed();
      routes[req.url!]?.(res);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const res of held) if (!res.destroyed) res.writeHead(200).end();
  await new Promise<void>((ok) => server.close(() => ok()));
});

const local = { timeoutMs: 400, stage: 'local' as const };
const post = (path: string, options: Partial<Parameters<typeof postWebhook>[3]> = {}) =>
  postWebhook(`${base}${path}`, '{"id":"d-1"}', { 'webhook-id': 'd-1' }, { ...local, ...options });

describe('postWebhook', () => {
  it('succeeds on any 2xx and sends the body as JSON with the given headers', async () => {
    expect(await post('/ok')).toMatchObject({ httpStatus: 204, error: null });
    expect(await post('/accepted')).toMatchObject({ httpStatus: 202, error: null });
    const last = received.at(-1)!;
    expect(last).toMatchObject({ body: '{"id":"d-1"}', headers: { 'content-type': 'application/json', 'webhook-id': 'd-1' } });
  });

  it('fails on other statuses, and does not follow redirects', async () => {
    expect(await post('/fail')).toMatchObject({ httpStatus: 503, error: 'HTTP 503' });
    const before = received.length;
    expect(await post('/moved')).toMatchObject({ httpStatus: 302, error: expect.stringMatching(/redirects are not followed/) });
    expect(received.slice(before).map((r) => r.path)).toEqual(['/moved']);
  });

  it('fails when the receiver does not answer within the timeout', async () => {
    const result = await post('/held'); // the receiver holds its answer past the end of the test
    expect(result).toMatchObject({ httpStatus: null, error: 'no answer within 400 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(390);
  });

  it('fails when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((ok) => closed.close(() => ok()));
    expect(await postWebhook(`http://127.0.0.1:${port}/`, '{}', {}, local)).toMatchObject({ httpStatus: null, error: 'connection refused' });
  });

  it('rejects (does not report a failure) when aborted, as the local worker does when it stops', async () => {
    const controller = new AbortController();
    const before = received.length;
    const sending = post('/held', { timeoutMs: 60_000, signal: controller.signal });
    // Aborted while the receiver holds the request: sent, not answered, not timed out.
    await arrivals.until(() => received.length > before);
    controller.abort();
    await expect(sending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses, without connecting, what the stage does not allow', async () => {
    const before = received.length;
    expect(await post('/ok', { stage: 'dev' })).toMatchObject({ httpStatus: null, error: expect.stringMatching(/must be an https URL/) });
    expect(await postWebhook('https://127.0.0.1:1/hook', '{}', {}, { ...local, stage: 'prod' })).toMatchObject({ error: 'address 127.0.0.1 is not allowed' });
    expect(await postWebhook('https://localhost:1/hook', '{}', {}, { ...local, stage: 'prod' })).toMatchObject({ error: expect.stringMatching(/address (127\.0\.0\.1|::1) is not allowed/) });
    expect(received.length).toBe(before);
  });
});

describe('guardedLookup', () => {
  const lookup = (allowed: (a: string) => boolean, all: boolean) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((ok) =>
      guardedLookup(allowed)('localhost', { all }, (err, address) => ok({ err, address })),
    );

  it('answers the addresses it allows, in both lookup forms', async () => {
    expect((await lookup(() => true, false)).address).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect((await lookup(() => true, true)).address).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.any(String) })]));
  });

  it('fails the connection when any address is refused', async () => {
    const { err } = await lookup(() => false, false);
    expect(err).toMatchObject({ code: 'EADDRNOTALLOWED', message: expect.stringMatching(/is not allowed/) });
  });
});
