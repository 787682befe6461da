/**
 * The domain call: the chain's Middy handler, which runs the operation behind the write gate (its
 * reads go out at once, its writes wait for the rate window's verdict: shared/data/writeGate.ts)
 * and returns its outcome for the responder. A repeated `Idempotency-Key` has left the first answer
 * in the state (idempotency.ts): then the operation does not run and that answer is the outcome.
 *
 * Middy calls a handler with the event and the Lambda context, not with the Middy request that
 * holds the chain's state. `handOver`, the chain's last `before` step, hands that request to the
 * handler: it is synchronous, and Middy calls the handler right after the last `before` step with
 * no await in between, so no other invocation runs in that gap and one slot serves concurrent
 * invocations of the same function. The handler checks that the request it takes is its event's.
 * (A `before` step could run the operation itself, but Middy's early timeout, a 503 before Lambda
 * stops the function, covers only the handler.)
 */
import { gateWrites } from '../../data/writeGate';
import type { PublicRequest } from '../request';
import type { Outcome } from './outcome';
import { type ChainRequest, type ChainStep, type HttpEvent, requestOf, stateOf } from './state';

/** An operation: the handler file's domain call, its answer as an outcome. */
export type DomainCall = (req: PublicRequest) => Promise<Outcome>;

export function domainCall(call: DomainCall): {
  handOver: ChainStep;
  handler: (event: HttpEvent) => Promise<Outcome>;
} {
  let handedOver: ChainRequest | undefined;
  return {
    handOver: {
      before: (request) => {
        handedOver = request;
      },
    },
    handler: (event) => {
      const request = handedOver;
      handedOver = undefined;
      if (request?.event !== event) throw new Error('handOver must be the last step before the domain call');
      const s = stateOf(request);
      if (s.replay) return Promise.resolve({ kind: 'replay', answer: s.replay });
      if (!s.verdict) throw new Error('the rate window must run before the domain call');
      return gateWrites(s.verdict, () => call(requestOf(request)));
    },
  };
}
