/**
 * Every AWS SDK call the product's clients make in a test process, as IAM authorizes it, and which
 * function made it: a middleware on each client (`recordClient`; the data layer's, the SQS
 * queue's, API Gateway's …) turns a command into its IAM requests and files them under the
 * function the process is being at that moment (`runningFunction`, bin/local/function-scope.ts:
 * the local stage enters it per request, around the authorizer, the pipeline's dispatcher and
 * delivery and the sweeper; integration tests with `asFunction`). A call outside any scope is kept
 * as UNATTRIBUTED, never dropped. test/support/iam-check.ts asks the synthesized role of each
 * function about each distinct call.
 *
 * The middleware sits at the `initialize` step, before any other. A client that aws-sdk-client-mock
 * answers never runs its middleware: `recordSends` records at its `send` instead (the bundle
 * harness), so mocked SQS and API Gateway calls are checked too.
 *
 * Requests name resources by what the function's template environment resolves them to, so the
 * check can use the template's own ARNs: `{table}` (the data layer's table), `{queue:ENV}` (the
 * queue whose URL the environment variable ENV holds), `{plan:tier}` (USAGE_PLAN_IDS' plan of that
 * tier). Transactions are split into their item actions, batches per table, a Query names its
 * index; partitions are kept by family (`normalizePartition`), so a record stays small.
 */
import { randomUUID } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runningFunction } from '../../bin/local/function-scope';
import { table } from '../../shared/data/table';

export { asFunction, LOCAL_QUEUE } from '../../bin/local/function-scope';

/** Calls made outside any function's scope (a test's own setup through the data layer, say). */
export const UNATTRIBUTED = '(unattributed)';

/** One IAM request of one function, and how often the suite made it. */
export interface AwsCall {
  /** The function's deployed name without `brigade-<stage>-`, LOCAL_QUEUE or UNATTRIBUTED. */
  fn: string;
  /** `dynamodb:GetItem`, `sqs:SendMessage`, `apigateway:POST` … */
  action: string;
  /** An ARN, with `{table}`, `{queue:ENV}` or `{plan:tier}` in it where the template decides. */
  resource: string;
  /** `dynamodb:LeadingKeys`, by family. */
  leadingKey?: string;
  count: number;
}

const dynamoActions: Record<string, string> = {
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
const dynamoAction = (commandName: string) => {
  const name = commandName.replace(/Command$/, '');
  return dynamoActions[name] ?? dynamoActions[name.replace(/Items?$/, '')] ?? name;
};

type Input = Record<string, unknown>;
/** Marshalled (`{ S: 'x' }`) or plain: the data layer's commands are seen either way. */
const text = (value: unknown): string =>
  value && typeof value === 'object' && 'S' in value ? String((value as { S: unknown }).S) : String(value);

/**
 * One entry per family of partitions: a company's partitions with numbers and UUIDs blanked
 * (`C#0#WHSUB#U`), the others by their first segment (`KEY#…`, `RATE#…`, `CODE#…`).
 */
const normalizePartition = (pk: string) =>
  pk.startsWith('C#')
    ? pk.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, 'U').replace(/\d+/g, '0')
    : pk.replace(/#.*/s, '#…');

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

type Request = Omit<AwsCall, 'fn' | 'count'>;

/** The data layer's table as `{table}`; any other table by its own name (no role names it: denied). */
const tableResource = (name: unknown) =>
  name === process.env.TABLE_NAME ? '{table}' : `arn:aws:dynamodb:us-east-1:123456789012:table/${String(name)}`;

/** The IAM requests of one DynamoDB command: each item action with its table (or index) and leading key. */
function dynamoRequests(commandName: string, input: Input): Request[] {
  const action = dynamoAction(commandName);
  const item = (a: string, tableName: unknown, pk: string): Request => ({
    action: `dynamodb:${a}`,
    resource: tableResource(tableName),
    leadingKey: normalizePartition(pk),
  });
  switch (action) {
    case 'Query':
      return [
        {
          ...item(action, input.TableName, queryPartition(input)),
          ...(input.IndexName
            ? { resource: `${tableResource(input.TableName)}/index/${String(input.IndexName)}` }
            : {}),
        },
      ];
    case 'BatchGetItem':
      return Object.entries(input.RequestItems as Record<string, { Keys: unknown[] }>).flatMap(([name, r]) =>
        r.Keys.map((k) => item(action, name, partitionOfKey(k))),
      );
    case 'BatchWriteItem':
      return Object.entries(input.RequestItems as Record<string, Input[]>).flatMap(([name, r]) =>
        r.map((w) =>
          item(
            action,
            name,
            partitionOfKey((w.PutRequest as Input | undefined)?.Item ?? (w.DeleteRequest as Input).Key),
          ),
        ),
      );
    // A transaction is authorized item by item, as the item action each entry is.
    case 'TransactWriteItems':
    case 'TransactGetItems':
      return (input.TransactItems as Input[]).flatMap((t) =>
        Object.entries(t).map(([kind, step]) =>
          item(
            dynamoActions[kind]!,
            (step as Input).TableName,
            partitionOfKey((step as Input).Key ?? (step as Input).Item),
          ),
        ),
      );
    case 'GetItem':
    case 'PutItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return [item(action, input.TableName, partitionOfKey(input.Key ?? input.Item))];
    default:
      return [{ action: `dynamodb:${action}`, resource: tableResource(input.TableName) }];
  }
}

/** A queue URL as the environment variable that holds it (`{queue:DELIVERY_QUEUE_URL}`), else its own ARN. */
function queueResource(url: unknown): string {
  const env = Object.entries(process.env).find(([name, value]) => value === url && name.endsWith('_URL'))?.[0];
  return env ? `{queue:${env}}` : `arn:aws:sqs:us-east-1:123456789012:${String(url).split('/').pop()}`;
}

/** SQS authorizes a batch as its single action (SendMessageBatch is sqs:SendMessage). */
function sqsRequests(commandName: string, input: Input): Request[] {
  const action = commandName.replace(/Command$/, '').replace(/Batch$/, '');
  return [{ action: `sqs:${action}`, resource: queueResource(input.QueueUrl) }];
}

/** A usage plan id as `{plan:tier}` (USAGE_PLAN_IDS), else itself. */
function plan(id: unknown): string {
  const ids = JSON.parse(process.env.USAGE_PLAN_IDS ?? '{}') as Record<string, string>;
  return `{plan:${Object.entries(ids).find(([, v]) => v === id)?.[0] ?? String(id)}}`;
}

/** API Gateway's management API is authorized by HTTP method on the resource path. */
export function apiGatewayRequests(commandName: string, input: Input): Request[] {
  const gateway = (method: string, path: string): Request[] => [
    { action: `apigateway:${method}`, resource: `arn:aws:apigateway:us-east-1::${path}` },
  ];
  switch (commandName) {
    case 'CreateApiKeyCommand':
      return gateway('POST', '/apikeys');
    case 'DeleteApiKeyCommand':
      return gateway('DELETE', `/apikeys/${String(input.apiKey)}`);
    case 'CreateUsagePlanKeyCommand':
      return gateway('POST', `/usageplans/${plan(input.usagePlanId)}/keys`);
    case 'DeleteUsagePlanKeyCommand':
      return gateway('DELETE', `/usageplans/${plan(input.usagePlanId)}/keys/${String(input.keyId)}`);
    case 'UpdateUsagePlanCommand':
      return gateway('PATCH', `/usageplans/${plan(input.usagePlanId)}`);
    default:
      throw new Error(`the AWS call log does not know API Gateway's ${commandName}: add its IAM request`);
  }
}

/** The IAM requests of a command, by the client that sends it. */
function requestsOf(clientName: string, commandName: string, input: Input): Request[] {
  if (/^DynamoDB(Document)?Client$/.test(clientName)) return dynamoRequests(commandName, input);
  if (clientName === 'SQSClient') return sqsRequests(commandName, input);
  if (clientName === 'APIGatewayClient') return apiGatewayRequests(commandName, input);
  throw new Error(`the AWS call log does not know ${clientName}'s ${commandName}: add its IAM request`);
}

/** The calls of one process, written to one file each time a distinct call first appears (and counts, at most every second). */
export class AwsCallLog {
  private readonly calls = new Map<string, AwsCall>();
  private dirty = false;
  private readonly timer: NodeJS.Timeout;

  constructor(readonly file: string) {
    writeFileSync(file, '[]');
    this.timer = setInterval(() => this.dirty && this.flush(), 1000).unref();
  }

  /** A file of its own in `dir`, for a worker or a process. */
  static in(dir: string, label: string): AwsCallLog {
    return new AwsCallLog(join(dir, `${label}-${process.pid}-${randomUUID().slice(0, 8)}.json`));
  }

  add(clientName: string, commandName: string, input: Input): void {
    const fn = runningFunction.getStore() ?? UNATTRIBUTED;
    for (const request of requestsOf(clientName, commandName, input)) {
      const id = `${fn} ${request.action} ${request.resource} ${request.leadingKey ?? ''}`;
      const known = this.calls.get(id);
      if (known) {
        known.count++;
        this.dirty = true;
      } else {
        this.calls.set(id, { fn, ...request, count: 1 });
        this.flush();
      }
    }
  }

  /** Whole or not at all (a file and a rename): a process killed with SIGKILL leaves the last whole record. */
  flush(): void {
    this.dirty = false;
    writeFileSync(`${this.file}.tmp`, JSON.stringify([...this.calls.values()]));
    renameSync(`${this.file}.tmp`, this.file);
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}

const MIDDLEWARE = 'brigadeAwsCallLog';

type Middleware = (
  next: (args: { input: unknown }) => Promise<unknown>,
  context: { clientName?: string; commandName?: string },
) => (args: { input: unknown }) => Promise<unknown>;
/** Any AWS SDK v3 client (its middleware stack is all this needs). */
export interface SdkClient {
  middlewareStack: { add: (...args: never[]) => void; remove(name: string): boolean };
}

/**
 * Records every command `client` sends into `log`, before anything else of the client runs; answers
 * a function that stops recording it.
 */
export function recordClient(client: SdkClient, log: AwsCallLog): () => void {
  const add = client.middlewareStack.add.bind(client.middlewareStack) as (
    middleware: Middleware,
    options: Record<string, unknown>,
  ) => void;
  add(
    (next, context) => async (args) => {
      log.add(String(context.clientName ?? client.constructor.name), context.commandName ?? '', args.input as Input);
      return next(args);
    },
    { step: 'initialize', name: MIDDLEWARE, priority: 'high', override: true },
  );
  return () => void client.middlewareStack.remove(MIDDLEWARE);
}

type Send = (
  this: { constructor: { name: string } },
  command: { input: unknown; constructor: { name: string } },
  ...rest: unknown[]
) => unknown;

/**
 * Records every command sent through the `send` of these prototypes (each must own one): the AWS
 * SDK's base `Client.prototype` (every real client of the process, the bundles' included, whose
 * `@aws-sdk/*` resolve to the project's node_modules), and a mocked client's prototype, whose `send`
 * aws-sdk-client-mock replaced (its commands never reach the base class). Answers a function that
 * puts each `send` back; call it before the mocks are restored.
 */
export function recordSends(prototypes: readonly object[], log: AwsCallLog): () => void {
  const restores = prototypes.map((proto) => {
    if (!Object.hasOwn(proto, 'send'))
      throw new Error(
        `recordSends: ${proto.constructor.name}.prototype has no send of its own (its base class's would record twice)`,
      );
    const target = proto as { send: Send };
    const inner = target.send;
    target.send = function (this: { constructor: { name: string } }, command, ...rest) {
      log.add(this.constructor.name, command.constructor.name, command.input as Input);
      return inner.call(this, command, ...rest);
    };
    return () => void (target.send = inner);
  });
  return () => restores.reverse().forEach((r) => r());
}
