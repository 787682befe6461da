/**
 * The entity core against DynamoDB Local: reads by key (alone, many, and several families in one
 * round trip), the write steps' conditions and the errors they mean, and collection pages. Each
 * test uses a company id of its own, so nothing here depends on what other files write.
 */
import { randomUUID } from 'node:crypto';
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Type, type Static } from '../../shared/schemas/typebox';
import { describe, expect, it } from 'vitest';
import { readItems, readTogether } from '../../shared/data/batch';
import { db } from '../../shared/data/client';
import { companyKey, defineEntity } from '../../shared/data/entity';
import {
  counterStep,
  decodeCursor,
  encodeCursor,
  itemKey,
  queryAll,
  queryUntil,
  readLog,
  TooMany,
} from '../../shared/data/paging';
import { atVersion, transact, updateStep, writeAlone } from '../../shared/data/transact';
import { AppError } from '../../shared/errors';

const Widget = Type.Object({ id: Type.String(), name: Type.String(), rank: Type.Integer(), version: Type.Integer() });
type Widget = Static<typeof Widget>;
const Gadget = Type.Object({ id: Type.Integer(), label: Type.String() });

const widgets = defineEntity({
  name: 'TEST_WIDGET',
  label: 'widget',
  key: (companyId: number, id: string) => companyKey(companyId, `WIDGET#${id}`),
  schema: Widget,
  keyOf: (companyId, w) => [companyId, w.id] as const,
  indexes: (companyId, w) => ({
    gsi1pk: `C#${companyId}#WIDGETS`,
    gsi1sk: `${String(w.rank).padStart(4, '0')}#${w.id}`,
  }),
});
const gadgets = defineEntity({
  name: 'TEST_GADGET',
  label: 'gadget',
  key: (companyId: number, id: number) => companyKey(companyId, `GADGET#${id}`),
  schema: Gadget,
  keyOf: (companyId, g) => [companyId, g.id] as const,
});

/** A company id no other test file uses (ids from 9e8 up, random per test). */
const newCompany = () => 900_000_000 + Math.floor(Math.random() * 90_000_000);
const widget = (rank: number, name = `w${rank}`): Widget => ({ id: randomUUID(), name, rank, version: 1 });
const counter = (companyId: number) => companyKey(companyId, 'COUNT#WIDGET');

async function addWidgets(companyId: number, list: Widget[]) {
  for (const w of list) await transact([widgets.newItemStep(companyId, w), counterStep(counter(companyId), 1)]);
}

/** Counts the commands sent while `run` runs, by command name. */
async function countingCalls<T>(run: () => Promise<T>): Promise<{ result: T; calls: string[] }> {
  const calls: string[] = [];
  const client = db();
  const original = client.send.bind(client);
  client.send = ((command: { constructor: { name: string } }, ...rest: unknown[]) => {
    calls.push(command.constructor.name);
    return (original as (...a: unknown[]) => unknown)(command, ...rest);
  }) as typeof client.send;
  try {
    return { result: await run(), calls };
  } finally {
    client.send = original;
  }
}

describe('entity reads', () => {
  it('stores exactly the fields, the keys and the index keys, and answers only the fields', async () => {
    const companyId = newCompany();
    const w = widget(3);
    await transact([widgets.newItemStep(companyId, w)]);
    const raw = await db().send(
      new GetCommand({ TableName: process.env.TABLE_NAME, Key: widgets.key(companyId, w.id) }),
    );
    expect(raw.Item).toEqual({
      ...w,
      pk: `C#${companyId}`,
      sk: `WIDGET#${w.id}`,
      gsi1pk: `C#${companyId}#WIDGETS`,
      gsi1sk: `0003#${w.id}`,
      entity: 'TEST_WIDGET',
      companyId,
    });
    expect(await widgets.get(companyId, w.id)).toEqual(w);
    expect(await widgets.get(companyId + 1, w.id)).toBeUndefined();
  });

  it('stores a platform-wide entity without a companyId', async () => {
    const setting = defineEntity({
      name: 'TEST_SETTING',
      label: 'setting',
      platformWide: true,
      key: (name: string) => ({ pk: 'TEST_SETTINGS', sk: name }),
      schema: Type.Object({ name: Type.String(), value: Type.Integer() }),
      keyOf: (_none, s) => [s.name] as const,
    });
    const s = { name: randomUUID(), value: 3 };
    expect(setting.item(0, s)).toEqual({ pk: 'TEST_SETTINGS', sk: s.name, entity: 'TEST_SETTING', ...s });
    await transact([setting.newItemStep(0, s)]);
    expect(await setting.get(s.name)).toEqual(s);
  });

  it('getMany answers those that exist, in the order asked, in one BatchGetItem', async () => {
    const companyId = newCompany();
    const [a, b, c] = [widget(1), widget(2), widget(3)];
    await addWidgets(companyId, [a, b, c]);
    const { result, calls } = await countingCalls(() =>
      widgets.getMany([
        [companyId, c.id],
        [companyId, randomUUID()],
        [companyId, a.id],
        [companyId, c.id],
      ]),
    );
    expect(result.map((w) => w.id)).toEqual([c.id, a.id, c.id]);
    expect(calls).toEqual([BatchGetCommand.name]);
  });

  it('readTogether reads several families in one round trip, each answered as its request maps it', async () => {
    const companyId = newCompany();
    const w = widget(7);
    await addWidgets(companyId, [w]);
    await transact([gadgets.newItemStep(companyId, { id: 5, label: 'five' })]);
    const { result, calls } = await countingCalls(() =>
      readTogether({
        widget: widgets.read(companyId, w.id),
        missing: widgets.read(companyId, randomUUID()),
        gadgets: gadgets.readMany([
          [companyId, 5],
          [companyId, 6],
        ]),
        raw: readItems([counter(companyId)]),
      }),
    );
    expect(result.widget).toEqual(w);
    expect(result.missing).toBeUndefined();
    expect(result.gadgets).toEqual([{ id: 5, label: 'five' }]);
    expect(result.raw[0]).toMatchObject({ n: 1 });
    expect(calls).toEqual([BatchGetCommand.name]);
  });

  it('readTogether of a single key is one GetItem; of none, no call', async () => {
    const companyId = newCompany();
    const { calls } = await countingCalls(() => readTogether({ one: gadgets.read(companyId, 1) }));
    expect(calls).toEqual([GetCommand.name]);
    const empty = await countingCalls(() => readTogether({ none: gadgets.readMany([]) }));
    expect(empty.result.none).toEqual([]);
    expect(empty.calls).toEqual([]);
  });

  it('reads more than 100 keys (BatchGetItem’s limit) in chunks', async () => {
    const companyId = newCompany();
    const ids = Array.from({ length: 130 }, (_, i) => i + 1);
    await transact(ids.slice(0, 50).map((id) => gadgets.newItemStep(companyId, { id, label: `g${id}` })));
    await transact(ids.slice(50, 100).map((id) => gadgets.newItemStep(companyId, { id, label: `g${id}` })));
    await transact(ids.slice(100).map((id) => gadgets.newItemStep(companyId, { id, label: `g${id}` })));
    const { result, calls } = await countingCalls(() =>
      gadgets.getMany(ids.map((id) => [companyId, id] as [number, number])),
    );
    expect(result.map((g) => g.id)).toEqual(ids);
    expect(calls).toEqual([BatchGetCommand.name, BatchGetCommand.name]);
  });
});

describe('entity write steps', () => {
  it('newItemStep refuses an existing key with the error given, or a 409 naming the entity', async () => {
    const companyId = newCompany();
    const w = widget(1);
    await transact([widgets.newItemStep(companyId, w)]);
    await expect(transact([widgets.newItemStep(companyId, { ...w, name: 'again' })])).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'The widget already exists',
    });
    await expect(
      transact([widgets.newItemStep(companyId, w, () => new AppError('CONFLICT', 'taken'))]),
    ).rejects.toMatchObject({ message: 'taken' });
    expect((await widgets.get(companyId, w.id))?.name).toBe('w1');
  });

  it('versionedPutStep and versionedDeleteStep hold only at the version read; a failed step writes nothing of its transaction', async () => {
    const companyId = newCompany();
    const w = widget(1);
    await transact([widgets.newItemStep(companyId, w)]);
    const next = { ...w, name: 'renamed', version: 2 };
    await transact([widgets.versionedPutStep(companyId, next, 1)]);
    const stale = transact([
      gadgets.newItemStep(companyId, { id: 1, label: 'side effect' }),
      widgets.versionedPutStep(companyId, { ...w, name: 'stale', version: 2 }, 1),
    ]);
    await expect(stale).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'The widget was changed by another request; read it again and retry',
    });
    expect(await gadgets.get(companyId, 1)).toBeUndefined();
    await expect(transact([widgets.versionedDeleteStep(companyId, w)])).rejects.toMatchObject({ code: 'CONFLICT' });
    await transact([widgets.versionedDeleteStep(companyId, next)]);
    expect(await widgets.get(companyId, w.id)).toBeUndefined();
    // A put at a version of an item that no longer exists is refused too.
    await expect(transact([widgets.versionedPutStep(companyId, { ...next, version: 3 }, 2)])).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('existsStep holds only while the item exists, else 404 naming the entity', async () => {
    const companyId = newCompany();
    await expect(
      transact([widgets.existsStep([companyId, 'nope']), gadgets.newItemStep(companyId, { id: 2, label: 'x' })]),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Widget not found' });
    expect(await gadgets.get(companyId, 2)).toBeUndefined();
    await transact([gadgets.newItemStep(companyId, { id: 3, label: 'y' })]);
    await transact([gadgets.existsStep([companyId, 3]), widgets.newItemStep(companyId, widget(1))]);
  });

  it('writeAlone writes a Put or Update step as one call; a failed condition answers false with the item as it is', async () => {
    const companyId = newCompany();
    const w = widget(1);
    const { result: first, calls } = await countingCalls(() => writeAlone(widgets.newItemStep(companyId, w)));
    expect(first).toEqual({ written: true });
    expect(calls).toEqual([PutCommand.name]);
    const again = await writeAlone(widgets.newItemStep(companyId, { ...w, name: 'again' }));
    expect(again.written).toBe(false);
    expect(again.written === false && widgets.from(again.current!)).toEqual(w);

    const rename = (name: string, from: number) =>
      updateStep(widgets.key(companyId, w.id), { name, version: from + 1 }, { condition: atVersion(from) });
    expect(await writeAlone(rename('renamed', 1))).toEqual({ written: true });
    expect(await writeAlone(rename('stale', 1))).toMatchObject({
      written: false,
      current: { name: 'renamed', version: 2 },
    });
    expect(await widgets.get(companyId, w.id)).toEqual({ ...w, name: 'renamed', version: 2 });
    // An update whose condition needs the item answers false, without an item, when there is none.
    expect(
      await writeAlone(updateStep(widgets.key(companyId, 'nope'), { name: 'x' }, { condition: atVersion(1) })),
    ).toEqual({ written: false, current: undefined });
    expect(await widgets.get(companyId, 'nope')).toBeUndefined();
  });
});

describe('pages and queries', () => {
  it('lists a collection page by page, by page number or by cursor, with the counter as total', async () => {
    const companyId = newCompany();
    const list = Array.from({ length: 7 }, (_, i) => widget(i + 1));
    await addWidgets(companyId, list);
    const collection = { index: 'gsi1' as const, partition: `C#${companyId}#WIDGETS`, counter: counter(companyId) };
    const first = await widgets.list(collection, { page: 1, limit: 3 });
    expect(first.items.map((w) => w.rank)).toEqual([1, 2, 3]);
    expect(first.pagination).toMatchObject({ page: 1, limit: 3, total: 7, totalPages: 3 });
    const second = await widgets.list(collection, { page: 1, limit: 3, cursor: first.pagination.nextCursor! });
    expect(second.items.map((w) => w.rank)).toEqual([4, 5, 6]);
    expect(second.pagination.page).toBe(2);
    const third = await widgets.list(collection, { page: 3, limit: 3 });
    expect(third.items.map((w) => w.rank)).toEqual([7]);
    expect(third.pagination.nextCursor).toBeNull();
    // A cursor of another company's list is refused, never followed.
    const other = { ...collection, partition: `C#${companyId + 1}#WIDGETS`, counter: counter(companyId + 1) };
    await expect(
      widgets.list(other, { page: 1, limit: 3, cursor: first.pagination.nextCursor! }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('a cursor may carry how many items the pages before it listed (lists whose pages are not all full)', () => {
    const span = {
      index: 'gsi1' as const,
      partition: 'C#1#WIDGETS',
      range: { op: 'begins_with' as const, value: '00' },
    };
    const key = itemKey(
      { pk: 'C#1', sk: 'WIDGET#a', gsi1pk: 'C#1#WIDGETS', gsi1sk: '0003#a', name: 'not a key' },
      'gsi1',
    );
    expect(key).toEqual({ pk: 'C#1', sk: 'WIDGET#a', gsi1pk: 'C#1#WIDGETS', gsi1sk: '0003#a' });
    expect(decodeCursor(encodeCursor(3, key, 17), span)).toEqual({ page: 3, key, listed: 17 });
    expect(decodeCursor(encodeCursor(3, key), span)).toEqual({ page: 3, key });
    expect(() => decodeCursor(encodeCursor(3, key, -1), span)).toThrow(AppError);
    expect(() => decodeCursor(encodeCursor(3, key, 17), { ...span, partition: 'C#2#WIDGETS' })).toThrow(AppError);
  });

  it('queryUntil stops at the items wanted and says where to go on; queryAll reads to the end, with ranges and filters', async () => {
    const companyId = newCompany();
    const list = Array.from({ length: 6 }, (_, i) => widget(i + 1, i % 2 ? 'odd' : 'even'));
    await addWidgets(companyId, list);
    const span = { index: 'gsi1' as const, partition: `C#${companyId}#WIDGETS` };
    const { calls, result } = await countingCalls(() => queryUntil(span, 4));
    expect(result.items.map((i) => i.rank)).toEqual([1, 2, 3, 4]);
    expect(result.lastKey).toBeDefined();
    expect(calls).toEqual([QueryCommand.name]);
    const rest = await queryUntil(span, 10, result.lastKey);
    expect(rest.items.map((i) => i.rank)).toEqual([5, 6]);
    expect(
      (await queryAll({ ...span, range: { op: 'between', low: '0002', high: '0004~' } })).map((i) => i.rank),
    ).toEqual([2, 3, 4]);
    expect((await queryAll({ ...span, range: { op: 'begins_with', value: '0005' } })).map((i) => i.rank)).toEqual([5]);
    expect(
      (
        await queryAll({
          ...span,
          newestFirst: true,
          filter: { expression: '#n = :n', names: { '#n': 'name' }, values: { ':n': 'odd' } },
        })
      ).map((i) => i.rank),
    ).toEqual([6, 4, 2]);
  });

  it('bounds every read: a filter that drops items still counts them, a log page stays short with a cursor, a whole read refuses more than its bound, a deep page is 400', async () => {
    const companyId = newCompany();
    // 30 widgets, of which only the last matches the filter.
    await addWidgets(
      companyId,
      Array.from({ length: 30 }, (_, i) => widget(i + 1, i === 29 ? 'match' : 'other')),
    );
    const span = {
      index: 'gsi1' as const,
      partition: `C#${companyId}#WIDGETS`,
      filter: { expression: '#n = :n', names: { '#n': 'name' }, values: { ':n': 'match' } },
    };

    const { calls, result } = await countingCalls(() => queryUntil(span, 10));
    expect(result.items).toEqual([]);
    expect(result.lastKey).toMatchObject({ gsi1sk: expect.stringMatching(/^0010#/) });
    expect(calls).toEqual([QueryCommand.name]);

    // A log page of 5 reads 6 items, finds none, and says where to go on; following the cursors reaches the match.
    const first = await readLog(span, { page: 1, limit: 5 });
    expect(first).toMatchObject({ items: [], more: true, nextCursor: expect.any(String) });
    let page = first;
    let reads = 1;
    while (page.items.length === 0 && page.nextCursor) {
      page = await readLog(span, { page: 1, limit: 5, cursor: page.nextCursor });
      reads += 1;
    }
    expect(page.items.map((i) => i.rank)).toEqual([30]);
    expect(reads).toBe(5);

    await expect(queryAll({ index: 'gsi1', partition: `C#${companyId}#WIDGETS` }, 20)).rejects.toBeInstanceOf(TooMany);
    await expect(queryAll({ index: 'gsi1', partition: `C#${companyId}#WIDGETS` }, 20)).rejects.toMatchObject({
      status: 422,
    });
    expect(await queryAll({ index: 'gsi1', partition: `C#${companyId}#WIDGETS` }, 30)).toHaveLength(30);

    const collection = { index: 'gsi1' as const, partition: `C#${companyId}#WIDGETS`, counter: counter(companyId) };
    await expect(widgets.list(collection, { page: 11, limit: 100 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: '/page' }],
    });
    await expect(readLog(span, { page: 1001, limit: 1 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: '/page' }],
    });
    expect((await widgets.list(collection, { page: 10, limit: 100 })).items).toEqual([]);
  });
});
