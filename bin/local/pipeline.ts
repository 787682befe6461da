/**
 * The webhook pipeline of the local stage: in process, what the EventBridge Pipe, the queues and
 * the two Lambdas do on AWS (README.md, “Architecture”), with the same dispatcher and delivery code.
 *
 * - Stream reader: DynamoDB Local's stream of the table, read the way the Pipe reads it (every
 *   shard, new ones as they appear, children after their parents), filtered with the Pipe's own
 *   pattern; each outbox item goes to the dispatcher. It starts from TRIM_HORIZON: after a restart
 *   it reads everything again, and the idempotent delivery records make that harmless.
 * - Delivery worker: the queue is the table. Deliveries waiting for an attempt are in the due index
 *   (delivery records with their status and nextAttemptAt); the worker sleeps until the soonest is
 *   due (or the dispatcher wakes it) and runs the attempt. Stopping it mid-attempt abandons the
 *   attempt unrecorded; its claim expires and a restarted worker delivers it. Nothing is lost.
 *
 * WEBHOOK_BACKOFF_SCALE and WEBHOOK_TIMEOUT_MS (shared/webhooks/settings.ts) apply here as on AWS.
 * Tests wait on the pipeline's progress, never on the clock: `drained()` resolves when it has nothing
 * left to do, `settled()` when one delivery's latest attempt is recorded.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DescribeTableCommand, DynamoDBClient, type AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import { config } from '../../shared/config';
import { toAppError } from '../../shared/data/errors';
import type { DeliveryRef } from '../../shared/data/outbox';
import { deliveries, type WebhookDelivery } from '../../shared/data/webhookDeliveries';
import { AppError } from '../../shared/errors';
import { attemptDelivery } from '../../shared/webhooks/delivery';
import { dispatch } from '../../shared/webhooks/dispatch';
import { asFunction, LOCAL_QUEUE } from './function-scope';
import { matchesPattern, outboxFilterPattern } from '../../shared/webhooks/filter';
import { pipelineLogger as log } from '../../shared/webhooks/logger';
import { outboxMessageFromImage } from '../../shared/webhooks/outbox';

export interface LocalPipelineOptions {
  endpoint: string;
  tableName: string;
  /** How often an idle shard is polled (the Pipe polls about every 200 ms). */
  pollMs?: number;
}

const localCredentials = { region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
/** Attempts running at once. */
const CONCURRENCY = 16;
/**
 * The worker looks at the due index at least this often. Everything that makes a delivery due
 * (the dispatcher, a finished attempt) wakes it, and it knows when the soonest known one is due,
 * so this is only a safety net.
 */
const MAX_IDLE_MS = 5_000;
/** How often the stream is asked for new shards; a shard read to its end asks at once. */
const SHARD_SCAN_MS = 5_000;
const RETRY_PAUSE_MS = 500;

const isAbort = (err: unknown) => (err as Error)?.name === 'AbortError';

/** Sleeps, but wakes (without throwing) when the signal aborts. */
const pause = (ms: number, signal: AbortSignal) =>
  sleep(ms, undefined, { signal }).catch((err: unknown) => {
    if (!isAbort(err)) throw err;
  });

/**
 * What the loops report when they make progress (a read, a pass over the due index, an attempt
 * done): a promise for the next report, rejected when the pipeline stops. Waiting for a condition
 * is checking it, then awaiting the next report, then checking again; nothing sleeps.
 */
class Progress {
  private current!: Promise<void>;
  private settle!: { ok: () => void; fail: (err: Error) => void };
  private stopped: Error | undefined;

  constructor() {
    this.renew();
  }

  private renew(): void {
    this.current = new Promise<void>((ok, fail) => (this.settle = { ok, fail }));
    this.current.catch(() => undefined); // a report nobody awaited must not count as unhandled
  }

  report(): void {
    if (this.stopped) return;
    const { ok } = this.settle;
    this.renew();
    ok();
  }

  stop(): void {
    this.stopped = new Error('the local webhook pipeline stopped');
    this.settle.fail(this.stopped);
  }

  /** Resolves once `holds` answers true, checked now and after each report. */
  async until(holds: () => boolean | Promise<boolean>): Promise<void> {
    for (;;) {
      if (this.stopped) throw this.stopped;
      const next = this.current; // taken before the check, so a report made during it is not missed
      if (await holds()) return;
      await next;
    }
  }
}

class StreamReader {
  private readonly started = new Set<string>();
  private readonly finished = new Set<string>();
  private readonly readers: Promise<void>[] = [];
  private rescan = new AbortController();
  /** Shard scans and GetRecords calls started so far, and what they found (for `caughtUp`). */
  private scansStarted = 0;
  private scansDone = 0;
  private readsStarted = 0;
  /** Per open shard, the number of its latest read that found nothing more. */
  private readonly emptyReads = new Map<string, number>();

  constructor(
    private readonly streams: DynamoDBStreamsClient,
    private readonly streamArn: string,
    private readonly handle: (record: StreamRecord) => Promise<void>,
    private readonly pollMs: number,
    private readonly signal: AbortSignal,
    private readonly progress: Progress,
  ) {}

  /**
   * Resolves when every record written before the call is handled: a shard scan started after it
   * has finished, and every shard it found open has since been read to its end (a GetRecords,
   * started after the call, that found nothing more).
   */
  async caughtUp(): Promise<void> {
    const scans = this.scansStarted;
    const reads = this.readsStarted;
    this.rescan.abort(); // scan now rather than in up to SHARD_SCAN_MS
    await this.progress.until(
      () =>
        this.scansDone > scans &&
        [...this.started].every((id) => this.finished.has(id) || (this.emptyReads.get(id) ?? 0) > reads),
    );
  }

  /** Finds shards (again from time to time, so new ones are picked up) and reads each. */
  async run(): Promise<void> {
    while (!this.signal.aborted) {
      try {
        const scan = ++this.scansStarted;
        for (const shard of await this.shards()) {
          const id = shard.ShardId!;
          const parent = shard.ParentShardId;
          // A child's records come after its parent's: read it once the parent is done (or gone).
          const parentPending = parent !== undefined && this.started.has(parent) && !this.finished.has(parent);
          if (this.started.has(id) || parentPending) continue;
          this.started.add(id);
          this.readers.push(this.readShard(id));
        }
        this.scansDone = scan;
        this.progress.report();
      } catch (err) {
        if (!this.signal.aborted) log.error('local pipeline: cannot describe the stream', { error: err as Error });
      }
      await pause(SHARD_SCAN_MS, AbortSignal.any([this.signal, this.rescan.signal]));
      this.rescan = new AbortController();
    }
    await Promise.all(this.readers);
  }

  private async shards(): Promise<Shard[]> {
    const all: Shard[] = [];
    let start: string | undefined;
    do {
      const out = await this.streams.send(
        new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: start }),
      );
      all.push(...(out.StreamDescription?.Shards ?? []));
      start = out.StreamDescription?.LastEvaluatedShardId;
    } while (start);
    return all;
  }

  private async iterator(shardId: string, afterSequence: string | undefined): Promise<string | undefined> {
    const out = await this.streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.streamArn,
        ShardId: shardId,
        ...(afterSequence
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: afterSequence }
          : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return out.ShardIterator;
  }

  private async readShard(shardId: string): Promise<void> {
    let lastSequence: string | undefined;
    let iterator: string | undefined;
    while (!this.signal.aborted) {
      try {
        iterator ??= await this.iterator(shardId, lastSequence);
        if (!iterator) break;
        const read = ++this.readsStarted;
        const out = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
        for (const record of out.Records ?? []) {
          await this.handleUntilDone(record);
          if (this.signal.aborted) return;
          lastSequence = record.dynamodb?.SequenceNumber ?? lastSequence;
        }
        iterator = out.NextShardIterator;
        if (!iterator) break; // a closed shard, read to its end
        if (!out.Records?.length) {
          this.emptyReads.set(shardId, read);
          this.progress.report();
          await pause(this.pollMs, this.signal);
        }
      } catch (err) {
        if (this.signal.aborted) return;
        // An expired or trimmed iterator: ask again from the last record handled.
        iterator = undefined;
        log.warn('local pipeline: stream read failed; retrying', { shardId, error: err as Error });
        await pause(RETRY_PAUSE_MS, this.signal);
      }
    }
    this.finished.add(shardId);
    this.progress.report();
    this.rescan.abort(); // its children can be read now
  }

  /**
   * A record that cannot be dispatched now (the table is busy or unreachable) is retried, never
   * skipped. One that can never be dispatched (it does not parse) is logged and passed over, so it
   * cannot hold up every event behind it; on AWS the Pipe's retry policy does the same.
   */
  private async handleUntilDone(record: StreamRecord): Promise<void> {
    while (!this.signal.aborted) {
      try {
        await this.handle(record);
        return;
      } catch (err) {
        const mapped = toAppError(err);
        if (!(mapped instanceof AppError) || !['UNAVAILABLE', 'CONFLICT'].includes(mapped.code)) {
          log.error('local pipeline: record cannot be dispatched; skipping it', {
            eventID: record.eventID,
            error: err as Error,
          });
          return;
        }
        log.warn('local pipeline: dispatch failed; retrying', { eventID: record.eventID, error: err as Error });
        await pause(RETRY_PAUSE_MS, this.signal);
      }
    }
  }
}

class DeliveryWorker {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private nudge = new AbortController();
  /** Passes over the due index started so far, and the latest that found nothing at all to do. */
  private passes = 0;
  private lastEmptyPass = 0;

  constructor(
    private readonly signal: AbortSignal,
    private readonly progress: Progress,
  ) {}

  /**
   * Resolves when a pass started after the call found the due index empty with no attempt running:
   * every delivery is delivered, dead or cancelled (failed ones are retried first, however far off
   * their next attempt is).
   */
  async empty(): Promise<void> {
    const passes = this.passes;
    this.wake();
    await this.progress.until(() => this.lastEmptyPass > passes);
  }

  /** Looks at the due index now (new deliveries were queued). */
  wake(): void {
    this.nudge.abort();
  }

  async run(): Promise<void> {
    while (!this.signal.aborted) {
      let sleepMs = MAX_IDLE_MS;
      try {
        const pass = ++this.passes;
        const idle = this.inFlight.size === 0;
        const now = Date.now();
        const upcoming = await asFunction(LOCAL_QUEUE, () => deliveries.upcoming(CONCURRENCY));
        for (const next of upcoming) {
          const dueIn = Date.parse(next.dueAt) - now;
          if (dueIn > 0) sleepMs = Math.min(sleepMs, dueIn);
          else if (!this.inFlight.has(next.deliveryId) && this.inFlight.size < CONCURRENCY) this.attempt(next);
        }
        if (idle && upcoming.length === 0) this.lastEmptyPass = pass;
        this.progress.report();
      } catch (err) {
        if (!this.signal.aborted) log.error('local pipeline: cannot read due deliveries', { error: err as Error });
        sleepMs = RETRY_PAUSE_MS;
      }
      if (!this.nudge.signal.aborted) await pause(sleepMs, AbortSignal.any([this.signal, this.nudge.signal]));
      this.nudge = new AbortController();
    }
    await Promise.all(this.inFlight.values());
  }

  private attempt(ref: DeliveryRef): void {
    const running = asFunction('webhook-delivery', () => attemptDelivery(ref, { signal: this.signal })).then(
      () => {
        this.inFlight.delete(ref.deliveryId);
        this.progress.report();
        this.wake(); // a slot is free, and the attempt may have made something due
      },
      (err: unknown) => {
        // No wake-up: a delivery that keeps failing this way is looked at on the next round only.
        this.inFlight.delete(ref.deliveryId);
        this.progress.report();
        if (!this.signal.aborted)
          log.error('local pipeline: delivery attempt failed', { deliveryId: ref.deliveryId, error: err as Error });
      },
    );
    this.inFlight.set(ref.deliveryId, running);
  }
}

/** A delivery that waits for nothing: finished, or failed with its next attempt not yet due. */
const atRest = (d: WebhookDelivery | undefined, now: number) =>
  !d || (d.status !== 'pending' && (d.status !== 'failed' || Date.parse(d.nextAttemptAt!) > now));

export class LocalPipeline {
  private stopController: AbortController | undefined;
  private running: Promise<unknown> | undefined;
  private loops: { reader: StreamReader; worker: DeliveryWorker; delivering: Progress } | undefined;

  constructor(private readonly options: LocalPipelineOptions) {}

  /** Starts reading the stream (from its start) and delivering. */
  async start(): Promise<void> {
    if (this.stopController) return;
    // The worker's queue is the due index, which deliveries enter only when the configuration says so.
    if (config().deliveryQueue !== 'due-index')
      throw new Error(
        `the local webhook pipeline polls the due index, but WEBHOOK_DELIVERY_QUEUE=${config().deliveryQueue} keeps deliveries out of it: none would be delivered`,
      );
    const { endpoint, tableName, pollMs = 200 } = this.options;
    const table = new DynamoDBClient({ endpoint, ...localCredentials });
    let streamArn: string | undefined;
    try {
      streamArn = (await table.send(new DescribeTableCommand({ TableName: tableName }))).Table?.LatestStreamArn;
    } finally {
      table.destroy();
    }
    if (!streamArn) throw new Error(`table ${tableName} has no stream`);

    const stop = new AbortController();
    // Two channels: a settled() waiter reads the table on each report, and an idle shard reports every pollMs.
    const [reading, delivering] = [new Progress(), new Progress()];
    stop.signal.addEventListener('abort', () => [reading, delivering].forEach((p) => p.stop()));
    const streams = new DynamoDBStreamsClient({ endpoint, ...localCredentials });
    const worker = new DeliveryWorker(stop.signal, delivering);
    const enqueue = async () => worker.wake();
    const handle = async (record: StreamRecord) => {
      if (!matchesPattern(outboxFilterPattern, record)) return;
      await asFunction('webhook-dispatcher', () =>
        dispatch(
          outboxMessageFromImage(repairEmptyMaps(record.dynamodb!.NewImage as Record<string, AttributeValue>)),
          enqueue,
        ),
      );
    };
    const reader = new StreamReader(streams, streamArn, handle, pollMs, stop.signal, reading);
    this.loops = { reader, worker, delivering };
    this.stopController = stop;
    this.running = Promise.all([reader.run(), worker.run()]).finally(() => streams.destroy());
  }

  /** Stops both loops; attempts in flight are abandoned unrecorded (as if the process died). */
  async stop(): Promise<void> {
    if (!this.stopController) return;
    this.stopController.abort();
    await this.running;
    this.stopController = undefined;
    this.running = undefined;
    this.loops = undefined;
  }

  private started() {
    if (!this.loops) throw new Error('the local webhook pipeline is not running');
    return this.loops;
  }

  /**
   * Resolves when the pipeline has nothing left to do: every outbox item written before the call
   * is dispatched, and then no delivery is open (each is delivered, dead or cancelled) and no
   * attempt runs. Nothing more reaches a receiver until something new is written. It waits out
   * failed deliveries' retries, so it suits a stage whose backoff is scaled down
   * (WEBHOOK_BACKOFF_SCALE). Rejects when the pipeline stops first.
   */
  async drained(): Promise<void> {
    const { reader, worker } = this.started();
    await reader.caughtUp();
    await worker.empty();
  }

  /**
   * Resolves with the delivery (undefined when there is none) once its latest attempt is recorded
   * and it waits for nothing: delivered, dead or cancelled, or failed with its next attempt not yet
   * due. A delivery made due again (a manual retry) is settled once that attempt is recorded.
   * Rejects when the pipeline stops first.
   */
  async settled(companyId: number, deliveryId: string): Promise<WebhookDelivery | undefined> {
    const { delivering } = this.started();
    let found: WebhookDelivery | undefined;
    await delivering.until(async () => atRest((found = await deliveries.get(companyId, deliveryId)), Date.now()));
    return found;
  }
}

/**
 * DynamoDB Local's stream writes an empty map as `{}` instead of `{"M":{}}` (DynamoDB itself does
 * not); put the type back so the image unmarshalls as it would on AWS.
 */
export function repairEmptyMaps(image: Record<string, AttributeValue>): Record<string, AttributeValue> {
  const repair = (value: AttributeValue): AttributeValue => {
    if (Object.keys(value).length === 0) return { M: {} };
    if (value.M) return { M: repairEmptyMaps(value.M) };
    if (value.L) return { L: value.L.map(repair) };
    return value;
  };
  return Object.fromEntries(Object.entries(image).map(([k, v]) => [k, repair(v)]));
}
