/**
 * DynamoDB, mocked at the document client (aws-sdk-client-mock stubs DynamoDBDocumentClient#send,
 * so every `db().send(...)` of the data layer lands here; no marshalling, signing or HTTP runs).
 *
 * Always answered: the API key lookup (GetItem on `KEY#<keyId>`) and the rate window (UpdateItem
 * on `RATE#…`, `Attributes: { n: 1 }`). Everything else is answered by the current fixture's
 * responders, or with an empty result.
 */
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';

/** DynamoDB operation names, by document-client command. */
const commands = [
  ['GetItem', GetCommand],
  ['Query', QueryCommand],
  ['UpdateItem', UpdateCommand],
  ['PutItem', PutCommand],
  ['DeleteItem', DeleteCommand],
  ['TransactWriteItems', TransactWriteCommand],
  ['TransactGetItems', TransactGetCommand],
  ['BatchGetItem', BatchGetCommand],
  ['BatchWriteItem', BatchWriteCommand],
  ['Scan', ScanCommand],
] as const;

type OpName = (typeof commands)[number][0];
/**
 * Answers one command from its input. Each responder declares the part of the input it reads (its
 * parameter type), so any parameter type is accepted here and the mock passes the input as sent.
 */
type Responder = (input: never) => unknown;
export type Responders = Partial<Record<OpName, Responder>>;

/** What a call was for: the rate window, the API key lookup, a list's counter, or the operation's own data. */
type Role = 'rate' | 'auth' | 'counter' | 'data';

type Key = { pk: string; sk: string };

/** GetItem and BatchGetItem answered from a lookup of stored items by key (undefined: not found). */
export function keyedItems(itemAt: (key: Key) => Record<string, unknown> | undefined): Responders {
  return {
    GetItem: (input: { Key: Key }) => {
      const item = itemAt(input.Key);
      return item ? { Item: item } : {};
    },
    BatchGetItem: (input: { RequestItems: Record<string, { Keys: Key[] }> }) => {
      const [name, { Keys }] = Object.entries(input.RequestItems)[0]!;
      return { Responses: { [name]: Keys.flatMap((k) => itemAt(k) ?? []) } };
    },
  };
}

export interface SentCall {
  op: string;
  role: Role;
  input: Record<string, unknown>;
}

const opOf = (command: object): string => {
  const found = commands.find(([, cls]) => command instanceof cls);
  return found ? found[0] : command.constructor.name.replace(/Command$/, '');
};

function roleOf(op: string, input: Record<string, unknown>): Role {
  const key = input.Key as { pk?: unknown; sk?: unknown } | undefined;
  const pk = typeof key?.pk === 'string' ? key.pk : '';
  const sk = typeof key?.sk === 'string' ? key.sk : '';
  if (op === 'UpdateItem' && pk.startsWith('RATE#')) return 'rate';
  if (op === 'GetItem' && pk.startsWith('KEY#')) return 'auth';
  // Collections keep their size in a counter item (shared/data/paging.ts), sort key COUNT#…
  if (op === 'GetItem' && sk.startsWith('COUNT#')) return 'counter';
  return 'data';
}

export interface MockDb {
  /** Answers for the current operation's data calls (replaced per route). */
  use(responders: Responders): void;
  /** The API key lookup item (ApiKeyAuth plus its keys). */
  setKeyItem(keyId: string, item: Record<string, unknown>): void;
  /** Calls since the last reset, classified. */
  calls(): SentCall[];
  resetHistory(): void;
  /** API key lookups answered so far (mocked and plain sends alike): bcrypt ran for each. */
  keyLookups(): number;
  /**
   * Runs `fn` with DynamoDBDocumentClient#send replaced by a plain async function that gives the
   * same answers without sinon (no matching, no call recording): a reference for the mock's cost.
   */
  withPlainSend<T>(fn: () => Promise<T>): Promise<T>;
  restore(): void;
}

export function mockDb(): MockDb {
  const stub = mockClient(DynamoDBDocumentClient);
  let current: Responders = {};
  const keyItems = new Map<string, Record<string, unknown>>();
  let lookups = 0;

  const answer = (op: string, input: Record<string, unknown>): unknown => {
    const pk = (input.Key as { pk?: unknown } | undefined)?.pk;
    if (op === 'GetItem' && typeof pk === 'string' && pk.startsWith('KEY#')) {
      lookups += 1;
      const item = keyItems.get(pk.slice(4));
      return item ? { Item: item } : {};
    }
    if (op === 'UpdateItem' && typeof pk === 'string' && pk.startsWith('RATE#')) return { Attributes: { n: 1 } };
    const responder = current[op as OpName];
    return responder ? responder(input as never) : {};
  };

  stub.onAnyCommand().resolves({});
  for (const [op, cls] of commands) {
    stub.on(cls as never).callsFake(async (input: Record<string, unknown>) => answer(op, input));
  }

  return {
    use: (responders) => {
      current = responders;
    },
    setKeyItem: (keyId, item) => {
      keyItems.set(keyId, item);
    },
    calls: () =>
      stub.calls().map((call) => {
        const command = call.args[0] as unknown as { input: Record<string, unknown> };
        const op = opOf(command);
        return { op, role: roleOf(op, command.input), input: command.input };
      }),
    resetHistory: () => {
      stub.resetHistory();
    },
    keyLookups: () => lookups,
    async withPlainSend(fn) {
      const proto = DynamoDBDocumentClient.prototype as unknown as { send: unknown };
      const mocked = proto.send;
      proto.send = async function plainSend(command: { input: Record<string, unknown> }) {
        return answer(opOf(command), command.input);
      };
      try {
        return await fn();
      } finally {
        proto.send = mocked;
      }
    },
    restore: () => {
      stub.restore();
    },
  };
}
