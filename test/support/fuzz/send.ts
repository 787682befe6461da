/**
 * Sends a fuzz case to the local stage exactly as written: node:http, not fetch, so a path keeps
 * its `..` and its malformed escapes, a GET may carry a body, and a header or a query parameter
 * may repeat. The answer is checked against the OpenAPI description (test/support/answers.ts),
 * as `call` checks every answer of the API tests.
 */
import { Agent, request } from 'node:http';
import { checkAnswer } from '../answers';
import { bodyText, type FuzzCase } from './cases';
import type { Sent } from './oracle';

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** The request a case stands for, with the caller's credential. */
export function toSent(template: string, method: string, c: FuzzCase, credential: Record<string, string>): Sent {
  const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const p = c.params[name];
    if (!p) throw new Error(`no value for {${name}} of ${template}`);
    return p.raw ? p.value : encodeURIComponent(p.value);
  });
  const query = c.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const body = bodyText(c.body);
  const headers: Record<string, string> = { ...credential, ...c.headers };
  if (body !== undefined && c.contentType !== null) headers['Content-Type'] = c.contentType ?? 'application/json';
  return { method, url: query ? `${path}?${query}` : path, headers, body };
}

export interface Received {
  status: number;
  headers: Record<string, string | undefined>;
  /** Parsed JSON, or the text when it is not JSON. */
  body: unknown;
  /** What does not match the OpenAPI description. */
  problems: string[];
}

/** Sends `sent` to the stage at `baseUrl`; resolves with the answer and its check. */
export function send(baseUrl: string, sent: Sent): Promise<Received> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method: sent.method,
        path: sent.url,
        ...(sent.from ? { localAddress: sent.from } : {}),
        headers: {
          ...sent.headers,
          ...(sent.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(sent.body)) } : {}),
        },
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: the check below says so
          }
          const headers = Object.fromEntries(
            Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]),
          );
          const { problems } = checkAnswer(
            sent.method,
            new URL(sent.url, baseUrl).href,
            res.statusCode ?? 0,
            headers,
            body,
          );
          resolve({ status: res.statusCode ?? 0, headers, body, problems });
        });
      },
    );
    req.on('error', reject);
    if (sent.body !== undefined) req.write(sent.body);
    req.end();
  });
}

/** Runs `tasks` with at most `limit` at once, in order of start. */
export async function bounded<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return out;
}

/** A curl command that sends `sent` again (printed with a failure, to replay it by hand against `npm start`). */
export function curlOf(baseUrl: string, sent: Sent): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const headers = Object.entries(sent.headers).map(([k, v]) => `-H ${q(`${k}: ${v}`)}`);
  const body =
    sent.body === undefined
      ? []
      : sent.body.length > 2000
        ? [
            `--data-binary '<${Buffer.byteLength(sent.body)} bytes, starting ${JSON.stringify(sent.body.slice(0, 80))}>'`,
          ]
        : [`--data-binary ${q(sent.body)}`];
  return ['curl -sS', '-X', sent.method, ...headers, ...body, q(`${baseUrl}${sent.url}`)].join(' ');
}
