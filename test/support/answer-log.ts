/**
 * Every answer the API suite's stage serves, checked against the OpenAPI description
 * (answers.ts `checkAnswer`) in the process that runs the stage: Node's `http.server.request.start`
 * diagnostics channel hands over each request and its response, whose body is caught as it is
 * written. So answers count however a test asked (`call`, a plain `fetch`, a helper of its own), and
 * the counts of all the suite's workers add up in one place. The record goes to a JSON file:
 * `test/api-coverage/answers.test.ts` fails on any problem it holds, and the summary reporter
 * prints the totals.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { checkAnswer } from './answers';

export interface AnswerLog {
  /** operationId (or `fallback`) → answers checked: all of them, and those whose `data` had a response schema. */
  operations: Record<string, { answers: number; typed: number; statuses: Record<string, number> }>;
  /** The first problems met (at most MAX_PROBLEMS), each naming its request. */
  problems: string[];
  /** Problems in all, beyond those kept. */
  problemCount: number;
}

const CHANNEL = 'http.server.request.start';
const MAX_PROBLEMS = 50;

export const answerTotals = (log: AnswerLog) => {
  const all = Object.values(log.operations);
  return {
    answers: all.reduce((n, o) => n + o.answers, 0),
    typed: all.reduce((n, o) => n + o.typed, 0),
    operations: all.length,
  };
};

/** Starts checking the answers of the server on `port` into `file`; answers a function that stops it. */
export function recordAnswers(port: number, file: string): () => void {
  const log: AnswerLog = { operations: {}, problems: [], problemCount: 0 };
  const save = () => writeFileSync(file, JSON.stringify(log));
  save();
  const onRequest = (message: unknown) => {
    const { request, response, server } = message as {
      request: IncomingMessage;
      response: ServerResponse;
      server: Server;
    };
    const address = server.address();
    if (typeof address !== 'object' || address?.port !== port) return;
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(
        Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
      );
    };
    // headers given to writeHead go straight to the wire, not into getHeaders(): keep them too
    const written: Record<string, string> = {};
    const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
    response.writeHead = ((...args: unknown[]) => {
      const given = args.find((a, i) => i > 0 && a && typeof a === 'object') as Record<string, unknown> | undefined;
      for (const [k, v] of Object.entries(given ?? {})) if (v !== undefined) written[k.toLowerCase()] = String(v);
      return writeHead(...args);
    }) as ServerResponse['writeHead'];
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    response.write = ((...args: unknown[]) => (keep(args[0], args[1]), write(...args))) as ServerResponse['write'];
    response.end = ((...args: unknown[]) => (keep(args[0], args[1]), end(...args))) as ServerResponse['end'];
    response.once('finish', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: checked as its text (the description says JSON, so it will not match)
      }
      const headers = {
        ...Object.fromEntries(
          Object.entries(response.getHeaders()).map(([k, v]) => [
            k.toLowerCase(),
            v === undefined ? undefined : String(v),
          ]),
        ),
        ...written,
      };
      const url = new URL(request.url ?? '/', 'http://stage').href;
      const checked = checkAnswer(request.method ?? 'GET', url, response.statusCode, headers, body);
      const entry = (log.operations[checked.operation] ??= { answers: 0, typed: 0, statuses: {} });
      entry.answers++;
      if (checked.typed) entry.typed++;
      entry.statuses[response.statusCode] = (entry.statuses[response.statusCode] ?? 0) + 1;
      if (checked.problems.length) {
        log.problemCount++;
        if (log.problems.length < MAX_PROBLEMS)
          log.problems.push(
            `${request.method} ${request.url} → ${response.statusCode} (${checked.operation}): ${checked.problems.join('; ')}`,
          );
      }
      save();
    });
  };
  subscribe(CHANNEL, onRequest);
  return () => unsubscribe(CHANNEL, onRequest);
}

export const readAnswerLog = (file: string): AnswerLog => JSON.parse(readFileSync(file, 'utf8')) as AnswerLog;
