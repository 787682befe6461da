/**
 * Which DynamoDB item actions each operation's handler really made in the API suite, and on which
 * partitions: taken in the process that runs the suite's local stage, by a middleware on the data
 * layer's client and an AsyncLocalStorage entered for each request the stage serves (Node's
 * `http.server.request.start` diagnostics channel). A request is named by the router the stage
 * uses, as in route-log.ts; what the stage does outside a request once it has started (its webhook
 * pipeline, the no-show sweep) is recorded as `BACKGROUND`. `test/api-coverage/iam.test.ts` checks
 * every recorded call against the role the infrastructure gives the function that makes it on AWS
 * (infra/data-access.ts).
 *
 * Transactions and batches are split into the item actions IAM authorizes them by (a
 * TransactWriteItems Put is a PutItem); a Query names its index. Partition values are kept by
 * family (`normalizePartition`), so the record stays small.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import { db } from '../../shared/data/client';
import { table } from '../../shared/data/table';
import { matchRoute } from '../../shared/http/router';

/** One item action: `GetItem`, `Query` … and the index it used (none: the table). */
export interface DynamoCall {
  action: string;
  index?: string;
  partition: string;
}

/** operationId (or `fallback`, or BACKGROUND) → the distinct calls its handler made. */
export type DynamoLog = Record<string, DynamoCall[]>;

/** Calls made outside any request: the local stage's webhook pipeline and no-show sweep. */
export const BACKGROUND = '(background)';

const CHANNEL = 'http.server.request.start';
const MIDDLEWARE = 'brigadeDynamoLog';

const commandActions: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactGet: 'TransactGetItems',
  TransactWrite: 'TransactWriteItems',
};
const actionOf = (commandName: string) => {
  const name = commandName.replace(/Command$/, '');
  return commandActions[name] ?? commandActions[name.replace(/Items?$/, '')] ?? name;
};

type Input = Record<string, unknown>;
/** Marshalled (`{ S: 'x' }`) or plain: the data layer's commands are seen either way. */
const text = (value: unknown): string => (value && typeof value === 'object' && 'S' in value ? String((value as { S: unknown }).S) : String(value));

/**
 * One entry per family of partitions: a company's partitions with numbers and UUIDs blanked
 * (`C#0#WHSUB#U`), the others by their first segment (`KEY#…`, `RATE#…`, `CODE#…`).
 */
export const normalizePartition = (pk: string) =>
  pk.startsWith('C#') ? pk.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, 'U').replace(/\d+/g, '0') : pk.replace(/#.*/s, '#…');

const partitionOfKey = (key: unknown) => text((key as Input)[table.partitionKey]);

/** The partition a Query names: the value its key condition binds to the index's partition key. */
function queryPartition(input: Input): string {
  const indexKey = table.indexes.find((i) => i.name === input.IndexName)?.partitionKey ?? table.partitionKey;
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Input;
  for (const [, name, value] of String(input.KeyConditionExpression ?? '').matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    if ((names[name!] ?? name) === indexKey) return text(values[value!]);
  }
  return '?';
}

/** The item actions one command is authorized as. */
export function callsOf(commandName: string, input: Input): DynamoCall[] {
  const action = actionOf(commandName);
  switch (action) {
    case 'Query':
      return [{ action, ...(input.IndexName ? { index: String(input.IndexName) } : {}), partition: queryPartition(input) }];
    case 'BatchGetItem':
      return Object.values(input.RequestItems as Record<string, { Keys: unknown[] }>).flatMap((r) => r.Keys.map((k) => ({ action, partition: partitionOfKey(k) })));
    case 'BatchWriteItem':
      return Object.values(input.RequestItems as Record<string, Input[]>).flatMap((r) =>
        r.map((w) => ({ action, partition: partitionOfKey((w.PutRequest as Input | undefined)?.Item ?? (w.DeleteRequest as Input).Key) })),
      );
    case 'TransactWriteItems':
    case 'TransactGetItems':
      return (input.TransactItems as Input[]).flatMap((t) =>
        Object.entries(t).map(([kind, step]) => ({ action: commandActions[kind]!, partition: partitionOfKey((step as Input).Key ?? (step as Input).Item) })),
      );
    default:
      return [{ action, partition: partitionOfKey(input.Key ?? input.Item) }];
  }
}

/**
 * Starts recording the DynamoDB calls of requests to the server on `port` into `file` (JSON), through
 * the data layer's current client; answers a function that stops it.
 */
export function recordDynamoCalls(port: number, file: string): () => void {
  const log: DynamoLog = {};
  const seen = new Set<string>();
  writeFileSync(file, '{}');
  const request = new AsyncLocalStorage<string>();
  const onStart = (message: unknown) => {
    const { request: req, server } = message as { request: IncomingMessage; server: Server };
    const address = server.address();
    if (typeof address !== 'object' || address?.port !== port) return;
    const match = matchRoute(req.method ?? '', new URL(req.url ?? '/', 'http://stage').pathname);
    // The handler runs in this execution context (the server emits 'request' right after).
    request.enterWith(match.kind === 'route' ? match.route.operationId : 'fallback');
  };
  subscribe(CHANNEL, onStart);

  const client = db();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = request.getStore() ?? BACKGROUND;
      for (const call of callsOf(context.commandName ?? '', args.input as Input)) {
        const entry = { ...call, partition: normalizePartition(call.partition) };
        const id = `${operation} ${entry.action} ${entry.index ?? ''} ${entry.partition}`;
        if (seen.has(id)) continue;
        seen.add(id);
        (log[operation] ??= []).push(entry);
        writeFileSync(file, JSON.stringify(log));
      }
      return next(args);
    },
    { step: 'build', name: MIDDLEWARE },
  );
  return () => {
    unsubscribe(CHANNEL, onStart);
    client.middlewareStack.remove(MIDDLEWARE);
  };
}

export const readDynamoLog = (file: string): DynamoLog => JSON.parse(readFileSync(file, 'utf8')) as DynamoLog;
