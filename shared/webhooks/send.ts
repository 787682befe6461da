/**
 * One webhook POST: no redirects followed (a 3xx is a failure), the whole exchange bounded by the
 * timeout, the address vetted at connection time. Only the status line matters: any 2xx is a
 * success, and the body of the answer is not read.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { Stage } from '../config';
import { addressPolicy, formRefusal, guardedLookup, hostOf } from './urlPolicy';

/**
 * Why an attempt failed, as recorded (attempt log, delivery, dead-letter alert): a category, never
 * the socket's own message, which would tell a tenant the addresses and internals our side saw
 * (an address its host resolved to, a TLS library's text). `blocked`: the URL or an address it
 * resolved to is not allowed (urlPolicy.ts); `dns`: the host does not resolve; `refused`: nothing
 * listens; `tls`: the TLS handshake or the certificate failed; `timeout`: no answer in time;
 * `network`: any other connection failure (reset, unreachable); `status N`: the receiver answered
 * N, which is not a 2xx (a redirect included: they are not followed).
 */
export type FailureCategory = 'blocked' | 'dns' | 'refused' | 'tls' | 'timeout' | 'network' | `status ${number}`;

export interface SendResult {
  /** The receiver's HTTP status; null when no answer came. */
  httpStatus: number | null;
  /** Why the attempt failed; null on a 2xx. */
  error: FailureCategory | null;
  durationMs: number;
}

export interface SendOptions {
  timeoutMs: number;
  stage: Stage;
  /** Aborting rejects the send (the attempt did not happen) instead of reporting a failure. */
  signal?: AbortSignal | undefined;
}

/** The category of a failed connection, from the error's code (Node's, OpenSSL's, the guarded lookup's). */
export function failureOf(err: NodeJS.ErrnoException): FailureCategory {
  const code = err.code ?? '';
  if (code === 'EADDRNOTALLOWED') return 'blocked';
  if (code === 'ENOTFOUND' || code.startsWith('EAI_')) return 'dns';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ETIMEDOUT') return 'timeout';
  if (/^ERR_(TLS|SSL)_|CERT|SIGNATURE|^EPROTO$/.test(code)) return 'tls';
  return 'network';
}

export function postWebhook(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: FailureCategory, httpStatus: number | null = null): SendResult => ({
    httpStatus,
    error,
    durationMs: elapsed(),
  });

  const url = new URL(rawUrl);
  if (formRefusal(url, options.stage)) return Promise.resolve(failed('blocked'));
  const allowed = addressPolicy(url, options.stage);
  const host = hostOf(url);
  // A literal address is connected to without a lookup, so it is checked here.
  if (isIP(host) && !allowed(host)) return Promise.resolve(failed('blocked'));

  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req: ClientRequest = send(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'Brigade-Webhooks/1.0',
      },
      lookup: guardedLookup(allowed),
      // A fresh connection per attempt: every attempt resolves and vets the address again.
      agent: false,
      signal: options.signal,
    });
    const timer = setTimeout(() => settle(failed('timeout')), options.timeoutMs);
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      res.resume();
      if (status >= 200 && status < 300) settle({ httpStatus: status, error: null, durationMs: elapsed() });
      else settle(failed(`status ${status}`, status));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (settled) return;
      if (options.signal?.aborted) {
        settled = true;
        clearTimeout(timer);
        reject(err);
        return;
      }
      settle(failed(failureOf(err)));
    });
    req.end(body);
  });
}
