/**
 * What a request costs DynamoDB: every command the stage's document client sends asks for its
 * consumed capacity (`ReturnConsumedCapacity: INDEXES`, which DynamoDB Local answers as DynamoDB
 * does: units per table and per index, transactions doubled), and the items and partitions it
 * writes are read off its input. The scale model (bench/sections/scale.ts, docs/scale.md) is built
 * from these figures.
 */
import { db } from '../../shared/data/client';

/** One command's cost. */
export interface CommandCost {
  command: string;
  /** What it was for: the rate window, the API key lookup, or the operation's own data. */
  role: 'rate' | 'auth' | 'data';
  readUnits: number;
  /** Write units on the table itself. */
  writeUnits: number;
  /** Write units on the indexes (each index copy of an item written). */
  indexWriteUnits: number;
  /** Items a write touched (puts, updates, deletes and condition checks of a transaction). */
  items: number;
  /** Partition families written (`C#<n>#EVENTS`, …), one entry per item, table keys and index keys alike. */
  partitions: string[];
  /** Partition families read. */
  readPartitions: string[];
  /**
   * Write units per partition family (table and index copies), for the items whose size the input
   * shows (puts): DynamoDB's 1 KB units, doubled on the table in a transaction. Updates and deletes
   * are not sized here (their units are in `writeUnits`).
   */
  partitionUnits: Record<string, number>;
  /** Read units per partition family read (a batch's units shared evenly among the partitions it read). */
  partitionReadUnits: Record<string, number>;
}

interface Capacity {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

const READS = new Set([
  'GetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'BatchGetItemCommand',
  'TransactGetItemsCommand',
  'GetCommand',
  'BatchGetCommand',
  'TransactGetCommand',
]);

/** A partition key as a family: numbers become `<n>`, ids `<id>`, dates and hours `<date>`/`<hour>`. */
export function family(pk: string): string {
  return pk
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}/g, '<hour>')
    .replace(/\d{4}-\d{2}-\d{2}/g, '<date>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/(RATE#)[^#]+:.*/, '$1<subject>')
    .replace(/(KEY#|CODE#).+/, '$1<key>')
    .replace(/\d+/g, '<n>');
}

type Keyed = { Item?: Record<string, unknown>; Key?: Record<string, unknown> };

/** An attribute value's size by DynamoDB's rules (strings and numbers as stored, 3 bytes per map or list plus 1 per element). */
function valueBytes(v: unknown): number {
  if (v === null || v === undefined || typeof v === 'boolean') return 1;
  if (typeof v === 'string') return Buffer.byteLength(v);
  if (typeof v === 'number') return Math.ceil(String(v).replace(/^-/, '').replace('.', '').length / 2) + 1;
  if (Array.isArray(v)) return 3 + v.reduce((s: number, e) => s + 1 + valueBytes(e), 0);
  if (typeof v === 'object') return 3 + itemBytes(v as Record<string, unknown>) + Object.keys(v).length;
  return 0;
}

/** An item's size by DynamoDB's rules: its attribute names and values. */
export function itemBytes(item: Record<string, unknown>): number {
  return Object.entries(item).reduce(
    (s, [k, v]) => (v === undefined ? s : s + Buffer.byteLength(k) + valueBytes(v)),
    0,
  );
}

/** Write units per partition family of the puts in this input (see `CommandCost.partitionUnits`). */
function putUnits(input: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  const transactional = Array.isArray(input.TransactItems);
  const puts = transactional
    ? (input.TransactItems as { Put?: Keyed }[]).flatMap((t) => (t.Put?.Item ? [t.Put.Item] : []))
    : input.Item
      ? [input.Item as Record<string, unknown>]
      : [];
  for (const item of puts) {
    const units = Math.ceil(itemBytes(item) / 1024);
    ['pk', 'gsi1pk', 'gsi2pk'].forEach((k, i) => {
      const pk = item[k];
      if (typeof pk !== 'string') return;
      const f = `${i ? `gsi${i}:` : ''}${family(pk)}`;
      out[f] = (out[f] ?? 0) + (i === 0 && transactional ? 2 * units : units);
    });
  }
  return out;
}

/** Every partition (table and index) an item written by this input lands in. */
function writtenPartitions(input: Record<string, unknown>): string[] {
  const each = (w: Keyed): string[] => {
    const item = w.Item ?? w.Key ?? {};
    return ['pk', 'gsi1pk', 'gsi2pk'].flatMap((k, i) =>
      typeof item[k] === 'string' ? [`${i ? `gsi${i}:` : ''}${family(item[k])}`] : [],
    );
  };
  if (Array.isArray(input.TransactItems))
    return (input.TransactItems as Record<string, Keyed>[]).flatMap((t) => Object.values(t).flatMap(each));
  if (input.RequestItems)
    return Object.values(input.RequestItems as Record<string, unknown[]>).flatMap((reqs) =>
      (reqs as Record<string, Keyed>[]).flatMap((r) =>
        Object.values(r).flatMap((w) => (typeof w === 'object' && w ? each(w) : [])),
      ),
    );
  return each(input as Keyed);
}

function readPartitions(input: Record<string, unknown>): string[] {
  const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  if (typeof input.KeyConditionExpression === 'string' && values) {
    const pk = Object.values(values).find((v) => typeof v === 'string' && v.includes('#'));
    return typeof pk === 'string' ? [`${input.IndexName ? `${String(input.IndexName)}:` : ''}${family(pk)}`] : [];
  }
  const key = (input.Key as Record<string, unknown> | undefined)?.pk;
  if (typeof key === 'string') return [family(key)];
  if (input.RequestItems)
    return Object.values(input.RequestItems as Record<string, { Keys?: { pk: string }[] }>).flatMap(
      (r) => r.Keys?.map((k) => family(k.pk)) ?? [],
    );
  return [];
}

function shareOf(units: number, partitions: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of partitions) out[p] = (out[p] ?? 0) + units / partitions.length;
  return out;
}

function roleOf(input: Record<string, unknown>): CommandCost['role'] {
  const pk = (input.Key as { pk?: unknown } | undefined)?.pk;
  if (typeof pk === 'string' && pk.startsWith('RATE#')) return 'rate';
  if (typeof pk === 'string' && pk.startsWith('KEY#')) return 'auth';
  return 'data';
}

function sum(capacity: Capacity | Capacity[] | undefined): { total: number; table: number; indexes: number } {
  const list = capacity === undefined ? [] : Array.isArray(capacity) ? capacity : [capacity];
  let total = 0;
  let indexes = 0;
  for (const c of list) {
    total += c.CapacityUnits ?? 0;
    for (const i of Object.values(c.GlobalSecondaryIndexes ?? {})) indexes += i.CapacityUnits ?? 0;
  }
  return { total, table: total - indexes, indexes };
}

export interface CapacityRecorder {
  /** The commands sent while `run` ran, with their costs. */
  record(run: () => Promise<unknown>): Promise<CommandCost[]>;
}

/** Installs the recorder on the stage's document client (once per process and name). */
export function recordCapacity(name: string): CapacityRecorder {
  let sink: CommandCost[] | undefined;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (!sink) return next(args);
      const into = sink;
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'INDEXES';
      const result = await next(args);
      const command = String(context.commandName);
      const units = sum((result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity);
      const read = READS.has(command);
      const transactItems = Array.isArray(input.TransactItems) ? input.TransactItems.length : 0;
      into.push({
        command: command.replace(/Command$/, ''),
        role: roleOf(input),
        readUnits: read ? units.total : 0,
        writeUnits: read ? 0 : units.table,
        indexWriteUnits: read ? 0 : units.indexes,
        items: read ? 0 : transactItems || 1,
        partitions: read ? [] : writtenPartitions(input),
        readPartitions: read ? readPartitions(input) : [],
        partitionUnits: read ? {} : putUnits(input),
        partitionReadUnits: read ? shareOf(units.total, readPartitions(input)) : {},
      });
      return result;
    },
    { step: 'initialize', name: `bench-capacity-${name}` },
  );
  return {
    async record(run) {
      const costs: CommandCost[] = [];
      sink = costs;
      try {
        await run();
      } finally {
        sink = undefined;
      }
      return costs;
    },
  };
}
