/**
 * Writes: every change is a list of steps written as one TransactWriteItems (all or nothing), each
 * step naming the error its condition failing means. The step builders here are the only place a
 * condition like "absent" or "still at the version read" is spelled out.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { PutCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { conflict, type AppError } from '../errors';
import type { Item, ItemKey } from './batch';
import { db, tableName } from './client';
import { ConcurrentChange, conditionFailed, sdk, toAppError } from './errors';
import { writeGate } from './writeGate';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of a transaction, and the error its condition failing means. */
export interface Step {
  item: TransactItem;
  /** Thrown when this step's ConditionExpression fails (e.g. NotFound, Conflict). */
  onConditionFailed?: () => AppError;
}

/** A condition of a step: an expression and the names and values it uses. */
export interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/**
 * A filter that each given attribute equals its value (undefined values are left out), for a
 * Query's FilterExpression; undefined when nothing is given.
 */
export function equalsAll(fields: Record<string, string | number | boolean | undefined>): Condition | undefined {
  const given = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (!given.length) return undefined;
  return {
    expression: given.map(([k]) => `#${k} = :${k}`).join(' AND '),
    names: Object.fromEntries(given.map(([k]) => [`#${k}`, k])),
    values: Object.fromEntries(given.map(([k, v]) => [`:${k}`, v])),
  };
}

/** The expression attributes of a condition, as a command takes them (none when empty). */
function conditionInput(c: Condition | undefined) {
  if (!c) return {};
  return {
    ConditionExpression: c.expression,
    ...(c.names && Object.keys(c.names).length ? { ExpressionAttributeNames: c.names } : {}),
    ...(c.values && Object.keys(c.values).length ? { ExpressionAttributeValues: c.values } : {}),
  };
}

const withError = (step: Step, onConditionFailed: (() => AppError) | undefined): Step =>
  onConditionFailed ? { ...step, onConditionFailed } : step;

/** Puts the item unconditionally (a link or marker whose key says everything). */
export const putStep = (item: Item): Step => ({ item: { Put: { TableName: tableName(), Item: item } } });

/** Puts the item only if no item has its key (put-if-absent); else `onExists` (a bug if not given). */
export const putNewStep = (item: Item, onExists?: () => AppError): Step =>
  withError(
    {
      item: {
        Put: { TableName: tableName(), Item: item, ...conditionInput({ expression: 'attribute_not_exists(pk)' }) },
      },
    },
    onExists,
  );

/** Puts the item only while `condition` holds of the item it replaces. */
export const conditionalPutStep = (item: Item, condition: Condition, onConditionFailed: () => AppError): Step =>
  withError({ item: { Put: { TableName: tableName(), Item: item, ...conditionInput(condition) } } }, onConditionFailed);

/** "Changed by another request" for a resource read at a version that is no longer current. */
export const changedMeanwhile = (what: string) => () =>
  conflict(`The ${what} was changed by another request; read it again and retry`);

/** The condition of optimistic concurrency: the item still exists at the version that was read. */
export const atVersion = (expectedVersion: number): Condition => ({
  expression: 'attribute_exists(pk) AND version = :v',
  values: { ':v': expectedVersion },
});

/** Deletes the item, under a condition when one is given. */
export const deleteStep = (key: ItemKey, condition?: Condition, onConditionFailed?: () => AppError): Step =>
  withError(
    { item: { Delete: { TableName: tableName(), Key: key, ...conditionInput(condition) } } },
    onConditionFailed,
  );

/** Holds only if `condition` is true of the item (e.g. it exists); writes nothing. */
export const checkStep = (key: ItemKey, condition: Condition, onConditionFailed: () => AppError): Step => ({
  item: {
    ConditionCheck: {
      TableName: tableName(),
      Key: key,
      ...conditionInput(condition),
      ConditionExpression: condition.expression,
    },
  },
  onConditionFailed,
});

/** Holds only if the item exists. */
export const existsStep = (key: ItemKey, onMissing: () => AppError): Step =>
  checkStep(key, { expression: 'attribute_exists(pk)' }, onMissing);

/**
 * An UpdateItem of some attributes: SET the defined values of `patch`, REMOVE the undefined ones,
 * plus any raw `add` actions (`ADD n :d`). Attributes not named are left as they are.
 */
export function updateStep(
  key: ItemKey,
  patch: Record<string, unknown>,
  options: { condition?: Condition; onConditionFailed?: () => AppError; add?: Record<string, number> } = {},
): Step {
  const names: Record<string, string> = { ...options.condition?.names };
  const values: Record<string, unknown> = { ...options.condition?.values };
  const set: string[] = [];
  const remove: string[] = [];
  const add: string[] = [];
  Object.entries(patch).forEach(([field, value], i) => {
    names[`#u${i}`] = field;
    if (value === undefined) remove.push(`#u${i}`);
    else {
      values[`:u${i}`] = value;
      set.push(`#u${i} = :u${i}`);
    }
  });
  Object.entries(options.add ?? {}).forEach(([field, delta], i) => {
    names[`#a${i}`] = field;
    values[`:a${i}`] = delta;
    add.push(`#a${i} :a${i}`);
  });
  const clauses = [
    set.length && `SET ${set.join(', ')}`,
    remove.length && `REMOVE ${remove.join(', ')}`,
    add.length && `ADD ${add.join(', ')}`,
  ].filter(Boolean);
  const update = {
    TableName: tableName(),
    Key: key,
    UpdateExpression: clauses.join(' '),
    ...conditionInput({ expression: options.condition?.expression ?? '', names, values }),
  };
  if (!options.condition) delete (update as { ConditionExpression?: string }).ConditionExpression;
  return withError({ item: { Update: update } }, options.onConditionFailed);
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

/** Tries of `transactShared`, and the longest random pause before the next (times the try). */
const SHARED_TRIES = 5;
const SHARED_PAUSE_MS = 40;

/**
 * `transact` for a write that touches an item every caller of an operation shares (the count of
 * the platform's companies): a cancellation by a concurrent transaction on the same item wrote
 * nothing, so it is tried again, up to 5 times, after a short random pause. Any other failure
 * leaves at once.
 */
export async function transactShared(steps: Step[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transact(steps);
    } catch (err) {
      if (!(err instanceof ConcurrentChange) || attempt >= SHARED_TRIES) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * SHARED_PAUSE_MS * attempt));
    }
  }
}

/** What a step written alone did: written, or not because its condition failed (with the item that failed it, if any). */
export type WriteAlone = { written: true } | { written: false; current: Item | undefined };

/**
 * A Put or Update step written alone, as one PutItem / UpdateItem instead of a transaction: for a
 * single-item write whose failed condition is an answer, not an error (another worker holds the
 * item, it was made already). The step's `onConditionFailed` is not used; a failed condition
 * answers `written: false` with the item as it is (ReturnValuesOnConditionCheckFailure).
 */
export async function writeAlone(step: Step): Promise<WriteAlone> {
  await writeGate();
  const { Put, Update } = step.item;
  const returning = { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } as const;
  try {
    if (Put) await sdk(() => db().send(new PutCommand({ ...Put, ...returning })));
    else if (Update) await sdk(() => db().send(new UpdateCommand({ ...Update, ...returning })));
    else throw new Error('Only a Put or an Update step can be written alone');
    return { written: true };
  } catch (err) {
    if (!conditionFailed(err)) throw err;
    // The document client leaves the item of a failed condition in DynamoDB's own JSON.
    const current = (err as { Item?: Record<string, AttributeValue> }).Item;
    return { written: false, current: current && unmarshall(current) };
  }
}
