/**
 * What the domain call answers, as the chain's handler returns it: a typed outcome, which the
 * responder renders into API Gateway's answer (`render`) and the idempotency step keeps.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { StoredAnswer } from '../../data/idempotency';
import type { Download } from '../../download';
import { downloadAnswer, successBody } from '../envelope';

export type Outcome =
  /** The domain's value in the success envelope (a `Page` with its pagination). */
  | { kind: 'result'; value: unknown }
  /** A file's bytes (shared/download.ts). */
  | { kind: 'download'; file: Download }
  /** A health probe's answer: its own status and body shape, not the envelope. */
  | { kind: 'probe'; statusCode: number; body: Record<string, unknown> }
  /** A document of its own (the OpenAPI document, the docs page and its script), with its headers. */
  | { kind: 'document'; body: string; headers: Record<string, string> }
  /** The first answer to a repeated `Idempotency-Key`, sent again (docs/idempotency.md). */
  | { kind: 'replay'; answer: StoredAnswer };

/**
 * `request.response` along the chain: the outcome the handler returned, until the responder
 * replaces it with the answer it renders (or the error envelope).
 */
export type ChainResponse = Outcome | APIGatewayProxyResult;

/** Whether the response is still the handler's outcome (not yet rendered). */
export const isOutcome = (response: ChainResponse | null | undefined): response is Outcome =>
  typeof response === 'object' && response !== null && 'kind' in response;

/** The outcome as API Gateway's answer, before the headers every answer carries (the responder adds them). */
export function render(outcome: Outcome, requestId: string): APIGatewayProxyResult {
  switch (outcome.kind) {
    case 'result':
      return { statusCode: 200, body: successBody(outcome.value, requestId) };
    case 'download':
      return downloadAnswer(outcome.file);
    case 'probe':
      return { statusCode: outcome.statusCode, body: JSON.stringify(outcome.body) };
    case 'document':
      return { statusCode: 200, headers: outcome.headers, body: outcome.body };
    case 'replay':
      return { ...outcome.answer, headers: { 'Idempotent-Replayed': 'true' } };
  }
}
