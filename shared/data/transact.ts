import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { conflict, type AppError } from '../errors';
import type { DomainEvent } from '../events/catalog';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys } from './keys';
import { writeGate } from './writeGate';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of a transaction, and the error its condition failing means. */
export interface Step {
  item: TransactItem;
  /** Thrown when this step's ConditionExpression fails (e.g. NotFound, Conflict). */
  onConditionFailed?: () => AppError;
}

/** Events are kept 30 days: the event log (`GET /api/v1/events`) can page back that far. */
export const EVENT_RETENTION_SECONDS = 30 * 24 * 3600;

/** The outbox item of an event: written in the same transaction as the change it describes. */
export function outboxStep(event: DomainEvent): Step {
  const { payload, companyId } = event;
  return {
    item: {
      Put: {
        TableName: tableName(),
        Item: {
          pk: `${keys.company(companyId)}#EVENTS`,
          sk: `${payload.timestamp}#${payload.id}`,
          // The event log by type (GET /api/v1/events?type=…): one Query per page, oldest first.
          gsi1pk: `${keys.company(companyId)}#EVENTS#${payload.event}`,
          gsi1sk: `${payload.timestamp}#${payload.id}`,
          entity: 'OUTBOX',
          companyId,
          payload,
          ttl: Math.floor(Date.parse(payload.timestamp) / 1000) + EVENT_RETENTION_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

/**
 * Runs the steps as one TransactWriteItems call: all of them happen or none does. A failed
 * condition becomes the error its step names, so callers see NotFound / Conflict, not SDK errors.
 */
export async function transact(steps: Step[]): Promise<void> {
  await writeGate();
  try {
    await db().send(new TransactWriteCommand({ TransactItems: steps.map((s) => s.item) }));
  } catch (err) {
    const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
    if ((err as Error).name === 'TransactionCanceledException' && reasons) {
      const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      const toError = failed >= 0 ? steps[failed]?.onConditionFailed : undefined;
      if (toError) throw toError();
      if (reasons.some((r) => r.Code === 'TransactionConflict')) {
        throw toAppError({ name: 'TransactionConflictException' });
      }
      if (reasons.some((r) => r.Code === 'ThrottlingError' || r.Code === 'ProvisionedThroughputExceeded')) {
        throw toAppError({ name: 'ThrottlingException' });
      }
    }
    throw toAppError(err);
  }
}

/**
 * Replaces an item only if it still has the version that was read (optimistic concurrency): a
 * concurrent change makes this step fail with 409, naming what changed under the caller.
 */
export function versionedPutStep(item: Record<string, unknown>, expectedVersion: number, what: string): Step {
  return {
    item: {
      Put: {
        TableName: tableName(),
        Item: item,
        ConditionExpression: 'attribute_exists(pk) AND version = :v',
        ExpressionAttributeValues: { ':v': expectedVersion },
      },
    },
    onConditionFailed: () => conflict(`The ${what} was changed by another request; read it again and retry`),
  };
}
