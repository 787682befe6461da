import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { toAppError } from './errors';

/** One fixed window of a rate limit (shared/domain/rateWindow.ts computes them). */
export interface Window {
  /** Unix seconds of the window's first second. */
  start: number;
  /** Unix seconds when the window ends and the count resets (the `X-RateLimit-Reset` value). */
  end: number;
}

export interface Hit {
  allowed: boolean;
  /** Requests counted in the window, this one included when allowed. */
  used: number;
}

export const rateWindows = {
  /**
   * Counts one request in the subject's window with one atomic UpdateItem, unless the window is
   * already full: then nothing is written and the request is refused.
   */
  async hit(subject: string, window: Window, limit: number): Promise<Hit> {
    const total = await rateWindows.lease(subject, window, limit, 1);
    return total === undefined ? { allowed: false, used: limit } : { allowed: true, used: total };
  },

  /**
   * Leases `block` requests of the subject's window for one container with one conditional
   * UpdateItem (shared/domain/rateLeases.ts), unless fewer than `block` are left: then nothing is
   * written and the answer is undefined. Answers the window's total leased, this block included.
   */
  async lease(subject: string, window: Window, limit: number, block: number): Promise<number | undefined> {
    try {
      const out = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: `RATE#${subject}`, sk: `W#${window.start}` },
          UpdateExpression: 'ADD #n :block SET #ttl = :ttl, entity = :e',
          ConditionExpression: 'attribute_not_exists(#n) OR #n <= :most',
          ExpressionAttributeNames: { '#n': 'n', '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':block': block,
            ':most': limit - block,
            ':ttl': window.end + 3600,
            ':e': 'RATE',
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(out.Attributes?.n ?? block);
    } catch (err) {
      if ((err as Error).name === 'ConditionalCheckFailedException') return undefined;
      throw toAppError(err);
    }
  },

  /**
   * Takes back one request `hit` counted (a held place that was not used up: the failed-lookup
   * budget, docs/access.md “Codes”), never below 0; a window already gone is left alone.
   */
  async release(subject: string, window: Window): Promise<void> {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: `RATE#${subject}`, sk: `W#${window.start}` },
          UpdateExpression: 'ADD #n :minus',
          ConditionExpression: '#n > :zero',
          ExpressionAttributeNames: { '#n': 'n' },
          ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
        }),
      );
    } catch (err) {
      if ((err as Error).name === 'ConditionalCheckFailedException') return;
      throw toAppError(err);
    }
  },
};
