/** One webhook POST against receivers on loopback: statuses, redirects, timeouts, aborts, refused addresses. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf, postWebhook } from '../../shared/webhooks/send';
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
    expect(last).toMatchObject({
      body: '{"id":"d-1"}',
      headers: { 'content-type': 'application/json', 'webhook-id': 'd-1' },
    });
  });

  it('fails on other statuses, and does not follow redirects', async () => {
    expect(await post('/fail')).toMatchObject({ httpStatus: 503, error: 'status 503' });
    const before = received.length;
    expect(await post('/moved')).toMatchObject({ httpStatus: 302, error: 'status 302' });
    expect(received.slice(before).map((r) => r.path)).toEqual(['/moved']);
  });

  it('fails when the receiver does not answer within the timeout', async () => {
    const result = await post('/held'); // the receiver holds its answer past the end of the test
    expect(result).toMatchObject({ httpStatus: null, error: 'timeout' });
    expect(result.durationMs).toBeGreaterThanOrEqual(390);
  });

  it('fails when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((ok) => closed.close(() => ok()));
    expect(await postWebhook(`http://127.0.0.1:${port}/`, '{}', {}, local)).toMatchObject({
      httpStatus: null,
      error: 'refused',
    });
  });

  it('records a TLS failure as tls (https to a receiver that speaks plain http)', async () => {
    const result = await postWebhook(`${base.replace('http:', 'https:')}/ok`, '{}', {}, local);
    expect(result).toMatchObject({ httpStatus: null, error: 'tls' });
  });

  it('records a host that does not resolve as dns, and other connection failures as network', () => {
    expect(failureOf(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' }))).toBe(
      'dns',
    );
    expect(failureOf(Object.assign(new Error('getaddrinfo EAI_AGAIN x'), { code: 'EAI_AGAIN' }))).toBe('dns');
    expect(failureOf(Object.assign(new Error('connect ECONNRESET 10.1.2.3:443'), { code: 'ECONNRESET' }))).toBe(
      'network',
    );
    expect(failureOf(Object.assign(new Error('connect EHOSTUNREACH 10.1.2.3:443'), { code: 'EHOSTUNREACH' }))).toBe(
      'network',
    );
    expect(failureOf(Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }))).toBe('tls');
    expect(
      failureOf(
        Object.assign(new Error("Hostname/IP does not match certificate's altnames"), {
          code: 'ERR_TLS_CERT_ALTNAME_INVALID',
        }),
      ),
    ).toBe('tls');
    expect(
      failureOf(Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })),
    ).toBe('tls');
    expect(failureOf(Object.assign(new Error('connect ETIMEDOUT 10.1.2.3:443'), { code: 'ETIMEDOUT' }))).toBe(
      'timeout',
    );
    expect(failureOf(new Error('something else'))).toBe('network');
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
    // Each is recorded as the category alone: no address, no socket text.
    expect(await post('/ok', { stage: 'dev' })).toMatchObject({ httpStatus: null, error: 'blocked' });
    expect(await postWebhook('https://127.0.0.1/hook', '{}', {}, { ...local, stage: 'prod' })).toMatchObject({
      error: 'blocked',
    });
    expect(await postWebhook('https://localhost/hook', '{}', {}, { ...local, stage: 'prod' })).toMatchObject({
      error: 'blocked',
    });
    expect(await postWebhook('https://[::ffff:7f00:1]/hook', '{}', {}, { ...local, stage: 'prod' })).toMatchObject({
      error: 'blocked',
    });
    // Another port than 443 on a deployed stage, even to a public address.
    expect(await postWebhook('https://93.184.215.14:8443/hook', '{}', {}, { ...local, stage: 'prod' })).toMatchObject({
      error: 'blocked',
    });
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
    expect((await lookup(() => true, true)).address).toEqual(
      expect.arrayContaining([expect.objectContaining({ address: expect.any(String) })]),
    );
  });

  it('fails the connection when any address is refused', async () => {
    const { err } = await lookup(() => false, false);
    expect(err).toMatchObject({ code: 'EADDRNOTALLOWED', message: expect.stringMatching(/is not allowed/) });
  });
});
