/**
 * Which Lambda function the local stage is being at a moment: on AWS each operation, the
 * authorizer, the webhook dispatcher and delivery, and the no-show sweeper are functions of their
 * own, each with its own role; locally they share one process. The stage enters a scope naming
 * the function (its deployed name without `brigade-<stage>-`: `createBooking`, `authorizer`,
 * `webhook-dispatcher` …) around the code that function runs, so that a record of AWS calls
 * (test/support/aws-call-log.ts) can ask each call of the right role. Outside any scope nothing
 * is claimed.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export const runningFunction = new AsyncLocalStorage<string>();

/** Runs `work` as the function named `name`. */
export const asFunction = <T>(name: string, work: () => T): T => runningFunction.run(name, work);

/**
 * The local stage's stand-in for the SQS delivery queue (its due-deliveries index): on AWS no
 * function makes these calls, Lambda's poller does (docs/testing.md, "How roles are checked").
 */
export const LOCAL_QUEUE = '(local delivery queue)';
