import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Principal } from '../auth/principal';
import type { StoredAnswer } from '../data/idempotency';

/** What a domain call gets from the chain: validated input and the verified caller. */
export interface ApiRequest<Body = unknown, Query = unknown, Path = unknown> {
  principal: Principal;
  body: Body;
  query: Query;
  path: Path;
  headers: Record<string, string | undefined>;
  requestId: string;
  sourceIp: string;
  method: string;
  rawPath: string;
}

/** A public operation's request: there may be no principal. */
export type PublicRequest<Body = unknown, Query = unknown, Path = unknown> = Omit<
  ApiRequest<Body, Query, Path>,
  'principal'
> & {
  principal: Principal | undefined;
};

/** The event after the chain's `before` steps: headers lower-cased, body parsed, query and path objects. */
export type ChainEvent = Omit<APIGatewayProxyEvent, 'body' | 'queryStringParameters' | 'pathParameters'> & {
  body: unknown;
  queryStringParameters: Record<string, unknown>;
  pathParameters: Record<string, unknown>;
  headers: Record<string, string | undefined>;
};

/** Per-request state the middlewares share. */
export interface RequestState {
  requestId: string;
  sourceIp: string;
  principal?: Principal;
  /** The first answer to a repeated `Idempotency-Key`, sent instead of running the operation (idempotency.ts). */
  replay?: StoredAnswer;
  /** Authentication failure, answered after the rate window has counted the request. */
  authError?: unknown;
  /**
   * The rate window's verdict, set by its `before` without waiting: resolves once the request is
   * counted and may go on, rejects with the refusal (429) or the failure to count (503).
   */
  verdict?: Promise<void>;
  rateHeaders: Record<string, string>;
  /** The answer's CORS headers (shared/http/cors.ts `answerHeaders`). */
  corsHeaders: Record<string, string>;
}
