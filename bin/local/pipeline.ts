/**
 * The webhook pipeline of the local stage: in process, what the EventBridge Pipe, the queues and
 * the two Lambdas do on AWS (ARCHITECTURE §1), with the same dispatcher and delivery code.
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
import { toAppError } from '../../shared/data/errors';
import type { DeliveryRef } from '../../shared/data/outbox';
import { deliveries } from '../../shared/data/webhookDeliveries';
import { AppError } from '../../shared/errors';
import { attemptDelivery } from '../../shared/webhooks/delivery';
import { dispatch } from '../../shared/webhooks/dispatch';
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
const pause = (ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal }).catch((err: unknown) => {
  if (!isAbort(err)) throw err;
});

class StreamReader {
  private readonly started = new Set<string>();
  private readonly finished = new Set<string>();
  private readonly readers: Promise<void>[] = [];
  private rescan = new AbortController();

  constructor(
    private readonly streams: DynamoDBStreamsClient,
    private readonly streamArn: string,
    private readonly handle: (record: StreamRecord) => Promise<void>,
    private readonly pollMs: number,
    private readonly signal: AbortSignal,
  ) {}

  /** Finds shards (again from time to time, so new ones are picked up) and reads each. */
  async run(): Promise<void> {
    while (!this.signal.aborted) {
      try {
        for (const shard of await this.shards()) {
          const id = shard.ShardId!;
          const parent = shard.ParentShardId;
          // A child's records come after its parent's: read it once the parent is done (or gone).
          const parentPending = parent !== undefined && this.started.has(parent) && !this.finished.has(parent);
          if (this.started.has(id) || parentPending) continue;
          this.started.add(id);
          this.readers.push(this.readShard(id));
        }
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
      const out = await this.streams.send(new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: start }));
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
        ...(afterSequence ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: afterSequence } : { ShardIteratorType: 'TRIM_HORIZON' }),
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
        const out = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
        for (const record of out.Records ?? []) {
          await this.handleUntilDone(record);
          if (this.signal.aborted) return;
          lastSequence = record.dynamodb?.SequenceNumber ?? lastSequence;
        }
        iterator = out.NextShardIterator;
        if (!iterator) break; // a closed shard, read to its end
        if (!out.Records?.length) await pause(this.pollMs, this.signal);
      } catch (err) {
        if (this.signal.aborted) return;
        // An expired or trimmed iterator: ask again from the last record handled.
        iterator = undefined;
        log.warn('local pipeline: stream read failed; retrying', { shardId, error: err as Error });
        await pause(RETRY_PAUSE_MS, this.signal);
      }
    }
    this.finished.add(shardId);
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
          log.error('local pipeline: record cannot be dispatched; skipping it', { eventID: record.eventID, error: err as Error });
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

  constructor(private readonly signal: AbortSignal) {}

  /** Looks at the due index now (new deliveries were queued). */
  wake(): void {
    this.nudge.abort();
  }

  async run(): Promise<void> {
    while (!this.signal.aborted) {
      let sleepMs = MAX_IDLE_MS;
      try {
        const now = Date.now();
        for (const next of await deliveries.upcoming(CONCURRENCY)) {
          const dueIn = Date.parse(next.dueAt) - now;
          if (dueIn > 0) sleepMs = Math.min(sleepMs, dueIn);
          else if (!this.inFlight.has(next.deliveryId) && this.inFlight.size < CONCURRENCY) this.attempt(next);
        }
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
    const running = attemptDelivery(ref, { signal: this.signal }).then(
      () => {
        this.inFlight.delete(ref.deliveryId);
        this.wake(); // a slot is free, and the attempt may have made something due
      },
      (err: unknown) => {
        // No wake-up: a delivery that keeps failing this way is looked at on the next round only.
        this.inFlight.delete(ref.deliveryId);
        if (!this.signal.aborted) log.error('local pipeline: delivery attempt failed', { deliveryId: ref.deliveryId, error: err as Error });
      },
    );
    this.inFlight.set(ref.deliveryId, running);
  }
}

export class LocalPipeline {
  private stopController: AbortController | undefined;
  private running: Promise<unknown> | undefined;

  constructor(private readonly options: LocalPipelineOptions) {}

  /** Starts reading the stream (from its start) and delivering. */
  async start(): Promise<void> {
    if (this.stopController) return;
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
    const streams = new DynamoDBStreamsClient({ endpoint, ...localCredentials });
    const worker = new DeliveryWorker(stop.signal);
    const enqueue = async () => worker.wake();
    const handle = async (record: StreamRecord) => {
      if (!matchesPattern(outboxFilterPattern, record)) return;
      await dispatch(outboxMessageFromImage(repairEmptyMaps(record.dynamodb!.NewImage as Record<string, AttributeValue>)), enqueue);
    };
    const reader = new StreamReader(streams, streamArn, handle, pollMs, stop.signal);
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
