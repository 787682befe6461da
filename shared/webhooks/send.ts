/**
 * One webhook POST: no redirects followed (a 3xx is a failure), the whole exchange bounded by the
 * timeout, the address vetted at connection time. Only the status line matters: any 2xx is a
 * success, and the body of the answer is not read.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { Stage } from '../config';
import { addressPolicy, addressRefusal, formRefusal, guardedLookup, hostOf } from './urlPolicy';

export interface SendResult {
  /** The receiver's HTTP status; null when no answer came. */
  httpStatus: number | null;
  /** Why the attempt failed; null on a 2xx. */
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  timeoutMs: number;
  stage: Stage;
  /** Aborting rejects the send (the attempt did not happen) instead of reporting a failure. */
  signal?: AbortSignal | undefined;
}

const MAX_ERROR_LENGTH = 300;

function describe(err: NodeJS.ErrnoException): string {
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host does not resolve',
    EAI_AGAIN: 'host does not resolve (DNS temporary failure)',
    EHOSTUNREACH: 'host unreachable',
  };
  const text = (err.code && known[err.code]) ?? err.message ?? String(err);
  return text.slice(0, MAX_ERROR_LENGTH);
}

export function postWebhook(rawUrl: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, httpStatus: number | null = null): SendResult => ({ httpStatus, error, durationMs: elapsed() });

  const url = new URL(rawUrl);
  const form = formRefusal(url, options.stage);
  if (form) return Promise.resolve(failed(`the URL ${form}`));
  const allowed = addressPolicy(url, options.stage);
  const host = hostOf(url);
  // A literal address is connected to without a lookup, so it is checked here.
  if (isIP(host) && !allowed(host)) return Promise.resolve(failed(addressRefusal(host)));

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
    const timer = setTimeout(() => settle(failed(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      res.resume();
      if (status >= 200 && status < 300) settle({ httpStatus: status, error: null, durationMs: elapsed() });
      else if (status >= 300 && status < 400) settle(failed(`HTTP ${status}: redirects are not followed`, status));
      else settle(failed(`HTTP ${status}`, status));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (settled) return;
      if (options.signal?.aborted) {
        settled = true;
        clearTimeout(timer);
        reject(err);
        return;
      }
      settle(failed(describe(err)));
    });
    req.end(body);
  });
}
