/**
 * Crash injection for the integration tests (test/integration/crash.test.ts): a DynamoDB client
 * that sees every command the data layer sends and can break its writes in two ways.
 *
 *   fail        the k-th write command of a run throws before it is sent (mode A: the write fails)
 *   loseAnswer  every write command reaches DynamoDB and commits, then its first answer is lost
 *               (a retryable ECONNRESET instead of the response): the SDK sends it again, as it
 *               would after a dropped connection (mode B: it committed and the answer was lost)
 *
 * The client also records the key of every item each company's writes touch (setup included), so
 * a company's state can be read back whole, by key, without scanning the shared table:
 * `snapshot` is every such item as it is now. `changeShape` reduces two snapshots to what changed,
 * without ids and times, so runs in different companies compare.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { config } from '../../shared/config';
import { db, tableName } from '../../shared/data/client';

type Key = { pk: string; sk: string };
type Item = Record<string, unknown>;

/**
 * `loseAnswer` with `newToken` sends the retry of a transaction under a new ClientRequestToken, as
 * a client that re-sent it as a new request would: the harness's proof that it sees a doubled write.
 */
export type Mode = { kind: 'off' } | { kind: 'fail'; at: number } | { kind: 'loseAnswer'; newToken?: boolean };

/** One write command of a run: how many times it was sent, and the ClientRequestToken each time. */
export interface SentWrite {
  command: string;
  attempts: number;
  tokens: (string | undefined)[];
}

export class InjectedCrash extends Error {
  override name = 'InjectedCrash';
}

const writeCommands = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
]);
/** Platform-wide counters other files move too (id blocks, rate windows): not part of a company's state. */
const shared = (k: Key) => k.pk === 'SEQ' || k.pk.startsWith('RATE#');

/** A key attribute as the command holds it: plain (document client) or marshalled. */
const plain = (v: unknown) => (v && typeof v === 'object' && 'S' in v ? (v as { S: string }).S : (v as string));
const keyOf = (item: Record<string, unknown> | undefined): Key[] =>
  item ? [{ pk: plain(item.pk), sk: plain(item.sk) }] : [];

/** The keys a write command names (a ConditionCheck writes nothing, but naming it does no harm). */
type Keyed = { Item?: Record<string, unknown>; Key?: Record<string, unknown> };
/** The parts of a write command's input that name keys. */
interface WriteInput extends Keyed {
  TransactItems?: { Put?: Keyed; Update?: Keyed; Delete?: Keyed; ConditionCheck?: Keyed }[];
  RequestItems?: Record<string, { PutRequest?: Keyed; DeleteRequest?: Keyed }[]>;
}

function keysOf(command: string, input: WriteInput): Key[] {
  switch (command) {
    case 'PutItemCommand':
      return keyOf(input.Item);
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      return keyOf(input.Key);
    case 'TransactWriteItemsCommand':
      return (input.TransactItems ?? []).flatMap((t) =>
        keyOf(t.Put?.Item ?? t.Update?.Key ?? t.Delete?.Key ?? t.ConditionCheck?.Key),
      );
    case 'BatchWriteItemCommand':
      return Object.values(input.RequestItems ?? {}).flatMap((requests) =>
        requests.flatMap((r) => keyOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key)),
      );
    default:
      return [];
  }
}

const bodyText = (body: unknown) =>
  typeof body === 'string' ? body : body instanceof Uint8Array ? new TextDecoder().decode(body) : '';

/** The injecting client, and what it saw. */
export class CrashClient {
  /** The company whose writes the client records now (the test sets it before each setup and run). */
  companyId = 0;
  private mode: Mode = { kind: 'off' };
  private readonly touched = new Map<number, Map<string, Key>>();
  private sent: SentWrite[] = [];

  readonly client: DynamoDBDocumentClient;

  constructor() {
    const { region, dynamoEndpoint } = config();
    const base = new DynamoDBClient({
      region,
      endpoint: dynamoEndpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 3,
    });
    const byCommand = new WeakMap<object, SentWrite>();
    // Before the SDK's retries: once per command. Records the keys, and fails the k-th write (mode A).
    base.middlewareStack.add(
      (next, context) => async (args) => {
        const command = context.commandName!;
        if (!writeCommands.has(command)) return next(args);
        const keys = this.touched.get(this.companyId) ?? new Map<string, Key>();
        this.touched.set(this.companyId, keys);
        for (const k of keysOf(command, args.input as WriteInput)) if (!shared(k)) keys.set(`${k.pk}\u0000${k.sk}`, k);
        const write: SentWrite = { command, attempts: 0, tokens: [] };
        this.sent.push(write);
        byCommand.set(context, write);
        if (this.mode.kind === 'fail' && this.sent.length === this.mode.at)
          throw new InjectedCrash(`injected: ${command} (write ${this.mode.at}) failed`);
        return next(args);
      },
      { step: 'initialize', name: 'crashInjection' },
    );
    // Under the SDK's retries: once per attempt. Lets the first attempt of each write commit, then loses its answer (mode B).
    base.middlewareStack.add(
      (next, context) => async (args) => {
        const write = byCommand.get(context);
        if (!write) return next(args);
        write.attempts += 1;
        const request = args.request as { body?: unknown };
        if (this.mode.kind === 'loseAnswer' && this.mode.newToken && write.attempts > 1) {
          // Same length, so the request stays well formed (DynamoDB Local does not check the signature).
          request.body = bodyText(request.body).replace(/("ClientRequestToken":")[^"]+/, `$1${randomUUID()}`);
        }
        write.tokens.push(/"ClientRequestToken":"([^"]+)"/.exec(bodyText(request.body))?.[1]);
        const answer = await next(args);
        if (this.mode.kind === 'loseAnswer' && write.attempts === 1) {
          throw Object.assign(new Error('socket hang up: the write committed, its answer was lost'), {
            name: 'AnswerLost',
            code: 'ECONNRESET',
          });
        }
        return answer;
      },
      { step: 'deserialize', name: 'answerLoss', priority: 'high' },
    );
    this.client = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  }

  /** Runs `run` under `mode`; answers how it ended and the write commands it sent. */
  async under<T>(mode: Mode, run: () => Promise<T>): Promise<{ result?: T; error?: unknown; writes: SentWrite[] }> {
    const writes: SentWrite[] = [];
    this.mode = mode;
    this.sent = writes;
    try {
      return { result: await run(), writes };
    } catch (error) {
      return { error, writes };
    } finally {
      this.mode = { kind: 'off' };
      this.sent = [];
    }
  }

  /** Every key the company's writes have touched so far. */
  keysOf(companyId: number): Key[] {
    return [...(this.touched.get(companyId)?.values() ?? [])];
  }

  /** Every company that wrote through this client. */
  companies(): number[] {
    return [...this.touched.keys()];
  }
}

/**
 * Every item the company's writes have touched, as it is now (strongly consistent), by key.
 * Items that no longer exist are simply absent.
 */
export async function snapshot(keys: readonly Key[]): Promise<Map<string, Item>> {
  const found: Item[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = keys.slice(i, i + 100);
    while (pending?.length) {
      const out: BatchGetCommandOutput = await db().send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }),
      );
      found.push(...(out.Responses?.[tableName()] ?? []));
      pending = out.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return new Map(found.map((item) => [`${item.pk}\u0000${item.sk}`, item]));
}

/** Times inside values, masked: two runs differ in them, and moving them is not a change of state. */
const timeless = (v: unknown) =>
  JSON.stringify(v, (_k, x) => (x instanceof Set ? [...x].sort() : x))?.replace(
    /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g,
    'T',
  );

/** What an item is, for a reader of a change: its entity, and an event's name. */
function kind(item: Item): string {
  const event = (item.payload as { event?: string } | undefined)?.event;
  if (item.entity === 'OUTBOX') return event ? `OUTBOX ${event}` : 'OUTBOX delivery request';
  return String(item.entity ?? `(no entity) ${String(item.sk).split('#')[0]}`);
}

/**
 * What changed between two snapshots, without ids, keys' ids or times (ISO strings, `ttl`): one line per item made
 * (`+ BOOKING`), removed (`- TABLE`) or changed (`~ TAB orderCount+1 status version+1`), sorted.
 * Numbers changed by a delta say it, so a counter or version moved twice shows.
 */
export function changeShape(before: Map<string, Item>, after: Map<string, Item>): string[] {
  const lines: string[] = [];
  for (const [key, item] of after) {
    const was = before.get(key);
    if (!was) {
      lines.push(`+ ${kind(item)}`);
      continue;
    }
    const fields = [...new Set([...Object.keys(was), ...Object.keys(item)])].sort().flatMap((f) => {
      if (f === 'ttl' && f in was && f in item) return []; // epoch seconds: a time, not a count
      if (!(f in was)) return [`+${f}`];
      if (!(f in item)) return [`-${f}`];
      if (typeof was[f] === 'number' && typeof item[f] === 'number')
        return was[f] === item[f]
          ? []
          : [`${f}${(item[f] as number) > (was[f] as number) ? '+' : ''}${(item[f] as number) - (was[f] as number)}`];
      return timeless(was[f]) === timeless(item[f]) ? [] : [f];
    });
    // Availability's buckets name a booking's attribute by its id, which differs between runs.
    const named =
      item.entity === 'BOOKINGS_AROUND' ? fields.map((f) => f.replace(/b[A-Za-z0-9_-]{22}$/, 'b<booking>')) : fields;
    if (named.length) lines.push(`~ ${kind(item)} ${named.join(' ')}`);
  }
  for (const [key, item] of before) if (!after.has(key)) lines.push(`- ${kind(item)}`);
  return lines.sort();
}

/** The shape of an answer: its fields and their types, not their values (ids and times differ between runs). */
export function answerShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(answerShape);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, answerShape(v)]));
  return value === null ? null : typeof value;
}
