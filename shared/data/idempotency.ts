/**
 * Idempotency records: the first answer to a POST sent with an `Idempotency-Key` (docs/idempotency.md).
 *
 *   record   C#<cid>#IDEM#<subject>#<key> / IDEM   (a caller with a credential: its company's partition)
 *            IDEM#anon#<subject>#<key> / IDEM       (a public operation called without one: per client
 *                                                    network, `ip:<network>`, as its rate window counts)
 *
 *   status       'running' while the first request runs (until `leaseUntil`), then 'done'
 *   fingerprint  SHA-256 of the method, path, query, body and X-Location-Id: a repeat must send the same request
 *   response     the first answer's status code and body, once done
 *   ttl          24 h after the first request (DynamoDB's TTL deletes it later; reads ignore it after)
 *
 * Writes wait for the request's rate window like every other write (writeGate.ts): a refused
 * request leaves no record.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys } from './keys';
import { writeGate } from './writeGate';

/** The first answer, replayed to every repeat. */
export interface StoredAnswer {
  statusCode: number;
  body: string;
}

export type IdempotencyRecord =
  | { status: 'running'; fingerprint: string; leaseUntil: number; owner: string }
  | { status: 'done'; fingerprint: string; response: StoredAnswer };

/** Whose key it is: a company's caller (its rate subject), or an anonymous caller of a public operation (its client network). */
export interface IdempotencyScope {
  companyId: number | null;
  subject: string;
}

const keyOf = (scope: IdempotencyScope, key: string) => ({
  pk:
    scope.companyId === null
      ? `IDEM#anon#${scope.subject}#${key}`
      : `${keys.company(scope.companyId)}#IDEM#${scope.subject}#${key}`,
  sk: 'IDEM',
});

/** How long a record answers repeats. */
export const RECORD_SECONDS = 24 * 3600;

async function readRecord(scope: IdempotencyScope, key: string): Promise<Record<string, unknown> | undefined> {
  try {
    return (await db().send(new GetCommand({ TableName: tableName(), Key: keyOf(scope, key), ConsistentRead: true })))
      .Item;
  } catch (err) {
    throw toAppError(err);
  }
}

export const idempotencyRecords = {
  /**
   * Claims the key for a first request: succeeds when there is no live record (none, expired, or a
   * running one whose lease ended: its request died). Otherwise answers the record that holds it,
   * read in the same call.
   */
  async claim(
    scope: IdempotencyScope,
    key: string,
    claim: { fingerprint: string; owner: string; nowMs: number; leaseMs: number },
  ): Promise<{ claimed: true } | { claimed: false; record: IdempotencyRecord }> {
    await writeGate();
    const nowSeconds = Math.floor(claim.nowMs / 1000);
    try {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...keyOf(scope, key),
            entity: 'IDEMPOTENCY',
            status: 'running',
            fingerprint: claim.fingerprint,
            owner: claim.owner,
            leaseUntil: claim.nowMs + claim.leaseMs,
            ttl: nowSeconds + RECORD_SECONDS,
          },
          ConditionExpression:
            'attribute_not_exists(pk) OR #ttl <= :now OR (#status = :running AND leaseUntil < :nowMs)',
          ExpressionAttributeNames: { '#ttl': 'ttl', '#status': 'status' },
          ExpressionAttributeValues: { ':now': nowSeconds, ':running': 'running', ':nowMs': claim.nowMs },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { claimed: true };
    } catch (err) {
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw toAppError(err);
      // The document client leaves the item of a failed condition in DynamoDB's wire form.
      const raw = (err as { Item?: Record<string, never> }).Item;
      const held = raw ? (unmarshall(raw) as Record<string, unknown>) : await readRecord(scope, key);
      if (!held) return this.claim(scope, key, claim); // released between the two calls
      const record: IdempotencyRecord =
        held.status === 'done'
          ? { status: 'done', fingerprint: String(held.fingerprint), response: held.response as StoredAnswer }
          : {
              status: 'running',
              fingerprint: String(held.fingerprint),
              leaseUntil: Number(held.leaseUntil),
              owner: String(held.owner),
            };
      return { claimed: false, record };
    }
  },

  /** Stores the first answer, if this request still holds the claim (a lease taken over is not overwritten). */
  async complete(scope: IdempotencyScope, key: string, owner: string, response: StoredAnswer): Promise<void> {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keyOf(scope, key),
          UpdateExpression: 'SET #status = :done, #response = :response REMOVE leaseUntil',
          ConditionExpression: '#owner = :owner AND #status = :running',
          ExpressionAttributeNames: { '#status': 'status', '#response': 'response', '#owner': 'owner' },
          ExpressionAttributeValues: { ':done': 'done', ':response': response, ':owner': owner, ':running': 'running' },
        }),
      );
    } catch (err) {
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw toAppError(err);
    }
  },

  /** Gives the key up after a request that wrote nothing (it failed): a repeat runs afresh. */
  async release(scope: IdempotencyScope, key: string, owner: string): Promise<void> {
    try {
      await db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: keyOf(scope, key),
          ConditionExpression: '#owner = :owner AND #status = :running',
          ExpressionAttributeNames: { '#status': 'status', '#owner': 'owner' },
          ExpressionAttributeValues: { ':owner': owner, ':running': 'running' },
        }),
      );
    } catch (err) {
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw toAppError(err);
    }
  },
};
