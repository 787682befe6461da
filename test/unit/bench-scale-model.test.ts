/**
 * The scale model's pure parts (bench/lib/capacity.ts, bench/lib/scaleModel.ts; docs/scale.md): how
 * an item's size and a partition's family are read, and how measured costs become walls and costs
 * (the authorizer's row with and without the verifier beside the hash).
 */
import { describe, expect, it } from 'vitest';
import { DESIGNS, STATED_COSTS } from '../../bench/lib/authorizerSim';
import { family, itemBytes } from '../../bench/lib/capacity';
import {
  costPerMillion,
  LIMITS,
  LOCATION_PEAK,
  PRICES,
  SIZES,
  walls,
  type Measured,
  type OperationCost,
} from '../../bench/lib/scaleModel';
import { keyCacheStats } from '../../shared/auth/authenticate';

const op = (operation: string, over: Partial<OperationCost> = {}): OperationCost => ({
  operation,
  what: operation,
  commands: [],
  readUnits: 0,
  writeUnits: 0,
  indexWriteUnits: 0,
  items: 0,
  partitions: [],
  readPartitions: [],
  partitionUnits: {},
  partitionReadUnits: {},
  rateWindow: { writes: 1, calls: 1 },
  ...over,
});

const measured = (operations: OperationCost[]): Measured => ({
  date: '2026-12-12',
  bookings: 100,
  tables: 40,
  operations,
  keyLookupReadUnits: 0.5,
  bcryptMs: 60,
  design: { publicTotalRps: null, deliveryConcurrency: 50 },
});

describe('capacity', () => {
  it('names partitions by family: numbers, ids, dates and hours replaced', () => {
    expect(family('C#12#L#000000000101#BOOKINGS')).toBe('C#<n>#L#<n>#BOOKINGS');
    expect(family('C#7#TABLE#5b0e3c9d-2f4a-4c1e-9d7b-8a6f1e2d3c4b')).toBe('C#<n>#TABLE#<id>');
    expect(family('SWEEP#2026-12-12T19')).toBe('SWEEP#<hour>');
    expect(family('RATE#key:abc123')).toBe('RATE#<subject>');
    expect(family('CODE#9WDEYVGQXZYMSHP2QA')).toBe('CODE#<key>');
  });

  it("sizes items by DynamoDB's rules: names and values, strings in UTF-8 bytes", () => {
    expect(itemBytes({ pk: 'abc' })).toBe(5);
    expect(itemBytes({ name: 'Åsa' })).toBe(4 + 4);
    expect(itemBytes({ n: 12345 })).toBe(1 + 4);
    expect(itemBytes({ ok: true, gone: undefined })).toBe(3);
    // a map: 3 bytes, plus each element's name and value and 1 byte each
    expect(itemBytes({ m: { a: 'x' } })).toBe(1 + 3 + 2 + 1);
  });
});

describe('scale model', () => {
  const availability = op('getAvailability', {
    readUnits: 32,
    partitionReadUnits: { 'gsi1:C#<n>#L#<n>#BOOKINGS': 30, 'C#<n>': 2 },
  });
  const create = op('createBooking', {
    commands: ['TransactWriteItems'],
    writeUnits: 16,
    indexWriteUnits: 14,
    partitionUnits: { 'C#<n>#EVENTS': 4, 'gsi2:C#<n>#BOOKINGS': 3 },
  });

  it("reaches a location's bookings partition at its read limit over availability's units on it", () => {
    const [partition] = walls(measured([availability, create]));
    expect(partition!.reachedAt).toMatch(/^100 availability calls\/s per location/);
    const perSecond = LOCATION_PEAK.getAvailability! * 30;
    for (const use of partition!.use) expect(use).toBeCloseTo(perSecond / LIMITS.partitionReadUnits);
  });

  it("grows a company's event log with its locations, and not the platform's restaurants", () => {
    const events = walls(measured([availability, create]))[2]!;
    expect(events.reachedAt).toMatch(/^250 write transactions\/s per company/);
    const perLocation = LOCATION_PEAK.createBooking! * 4;
    expect(events.use[0]).toBeCloseTo(perLocation / LIMITS.partitionWriteUnits);
    expect(events.use[1]).toBeCloseTo((perLocation * SIZES[1]!.locationsPerCompany) / LIMITS.partitionWriteUnits);
    expect(events.use[2]).toBeCloseTo(events.use[0]! * SIZES[2]!.atPeak);
  });

  it('holds webhook deliveries to their cap, and has no public wall without a platform-wide total', () => {
    const all = walls(measured([availability, create]));
    const deliveries = all.find((w) => w.limit.startsWith('Lambda concurrency'))!;
    expect(Math.max(...deliveries.use)).toBeLessThanOrEqual(50 / LIMITS.lambdaConcurrency);
    expect(all.find((w) => w.limit.startsWith("The edge's public"))!.use).toEqual([0, 0, 0]);
    const before = walls({
      ...measured([availability, create]),
      design: { publicTotalRps: 1, deliveryConcurrency: null },
    });
    expect(before.find((w) => w.limit.startsWith("The edge's public"))!.use[2]).toBeGreaterThan(1);
    expect(before.find((w) => w.limit.startsWith('Lambda concurrency'))!.use[1]).toBeGreaterThan(
      50 / LIMITS.lambdaConcurrency,
    );
  });

  it('meets the authorizer at bcrypt on a miss before the verifier, far above the largest size with it', () => {
    const authorizerOf = (m: Measured) => walls(m).find((w) => w.limit.startsWith('The authorizer'))!;
    const before = authorizerOf({
      ...measured([availability, create]),
      design: { publicTotalRps: null, deliveryConcurrency: 50, authorizer: { cacheKeys: 10_000, verifier: false } },
    });
    // 100,000 keys, 10,000 cached: 90 % of requests run bcrypt (60 ms here, at 512/1769 of a vCPU).
    const bcryptSeconds = (60 / 1000) * (LIMITS.fullCpuMemoryMb / LIMITS.authorizerMemoryMb);
    const capacity = LIMITS.lambdaConcurrency / (0.9 * bcryptSeconds + 0.001);
    expect(before.reachedAt).toMatch(new RegExp(`^${capacity.toFixed(0)} requests/s with 100,000 active keys`));
    expect(before.use[2]).toBeGreaterThan(1);
    expect(before.holds).toBe('nothing yet');
    // Without a design named, the model is the code as it is: the verifier, every request reading its key.
    const now = authorizerOf(measured([availability, create]));
    const perRequest = (STATED_COSTS.invocationMs + STATED_COSTS.readsPerMiss * STATED_COSTS.getItemMs) / 1000;
    expect(now.reachedAt).toMatch(new RegExp(`^${(LIMITS.lambdaConcurrency / perRequest).toFixed(0)} requests/s`));
    expect(now.limit).toContain('a verifier beside each bcrypt hash');
    expect(Math.max(...now.use)).toBeLessThan(1);
  });

  it("describes the authorizer as the code builds it: the cache's size is authenticate.ts's", () => {
    expect(DESIGNS.now.cacheKeys).toBe(keyCacheStats().maxEntries);
    expect(DESIGNS.now.verifier).toBe(true);
  });

  it("prices availability's reads apart and every request's rate window", () => {
    const rows = costPerMillion(measured([availability, create]));
    const peak = Object.values(LOCATION_PEAK).reduce((a, b) => a + b, 0);
    const row = (name: string) => rows.find((r) => r.component.startsWith(name))!.perMillion;
    expect(row('DynamoDB reads: availability')).toBeCloseTo(
      (32 * LOCATION_PEAK.getAvailability! * PRICES.readUnit) / peak,
    );
    const measuredRate = LOCATION_PEAK.getAvailability! + LOCATION_PEAK.createBooking!;
    expect(row('DynamoDB writes: rate windows')).toBeCloseTo((measuredRate * PRICES.writeUnit) / peak);
  });
});
