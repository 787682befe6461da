/**
 * The reporting tests' purchases: five purchases around a spring-forward day D of the location's
 * zone (computed from the zone's rules, test/support/dst.ts), spanning three VAT rates (and
 * amounts without one), two cost centers and lines without one, four providers, tips and service
 * fees. Built exactly as recording builds them (the lines' VAT rows by `purchaseVat`, the local
 * date by the location's zone), so the day totals they add are those real purchases add.
 *
 *   P1  D 00:30 local (D-1 23:30 UTC)  2 Toast Skagen 145.00 @12 KITCHEN + 1 Wine glass 120.00 @25 BAR   stripe, tip 20.00
 *   P2  D-1 23:59 local               1 Coffee 35.00 @12 (no item, no cost center)                       swish
 *   P3  D 19:00 local                 amount 100.00: 80.00 @25 + 20.00 @12, service fee 5.00              stripe
 *   P4  D+1 12:00 local               3 Wine glass @25 BAR + 1 Gift card 50.00 (no rate, no cost center) adyen, tip 10.00, fee 3.00
 *   P5  D 03:30 local (after the jump) amount 15.00, no VAT rows                                         cash
 */
import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import type { Purchase, PurchaseLine } from '../../shared/data/purchases';
import { localDateTime } from '../../shared/domain/bookings/time';
import { purchaseVat } from '../../shared/domain/tabs/bill';
import { nextSpringForward } from './dst';

const monthZone = 'Europe/Stockholm';

const kitchen = { code: 'KITCHEN', name: 'Kitchen' };
const bar = { code: 'BAR', name: 'Bar' };

const line = (
  itemId: number | null,
  name: string,
  quantity: number,
  unitPrice: number,
  vatRate: number | null,
  costCenter: PurchaseLine['costCenter'],
): PurchaseLine => ({ itemId, name, quantity, unitPrice, amount: quantity * unitPrice, vatRate, costCenter });

export interface TestMonth {
  /** The spring-forward day D and the days around it. */
  before: string;
  dst: string;
  after: string;
  purchases: Purchase[];
}

/** The five purchases at `locationId`, around the next spring-forward day after `from`. */
export function testMonth(locationId: number, from: Date = new Date()): TestMonth {
  const dst = nextSpringForward(monthZone, from);
  if (!dst) throw new Error(`${monthZone} has no spring-forward day within two years`);
  const day = DateTime.fromISO(dst, { zone: monthZone });
  const at = (d: DateTime, hour: number, minute: number) => d.set({ hour, minute }).toMillis();
  const purchase = (
    ms: number,
    spec: {
      items?: PurchaseLine[];
      amount?: number;
      vatRows?: { vatRate: number; amount: number }[];
      tip?: number;
      serviceFee?: number;
      provider: string;
    },
  ): Purchase => {
    const items = spec.items ?? [];
    const amount = spec.amount ?? items.reduce((sum, l) => sum + l.amount, 0);
    const tip = spec.tip ?? 0;
    const serviceFee = spec.serviceFee ?? 0;
    const createdAt = new Date(ms).toISOString();
    return {
      id: randomUUID(),
      tabId: randomUUID(),
      bookingId: null,
      locationId,
      status: 'succeeded',
      items,
      amount,
      vatRows: purchaseVat(spec.items, amount, spec.vatRows),
      tip,
      serviceFee,
      total: amount + tip + serviceFee,
      paymentProvider: spec.provider,
      providerReference: null,
      localDate: localDateTime(ms, monthZone).date,
      pickedUpAt: null,
      createdAt,
      updatedAt: createdAt,
      version: 1,
    };
  };
  return {
    before: day.minus({ days: 1 }).toISODate()!,
    dst,
    after: day.plus({ days: 1 }).toISODate()!,
    purchases: [
      purchase(at(day, 0, 30), {
        items: [line(501, 'Toast Skagen', 2, 14500, 12, kitchen), line(502, 'Wine glass', 1, 12000, 25, bar)],
        tip: 2000,
        provider: 'stripe',
      }),
      purchase(at(day.minus({ days: 1 }), 23, 59), {
        items: [line(null, 'Coffee', 1, 3500, 12, null)],
        provider: 'swish',
      }),
      purchase(at(day, 19, 0), {
        amount: 10000,
        vatRows: [
          { vatRate: 25, amount: 8000 },
          { vatRate: 12, amount: 2000 },
        ],
        serviceFee: 500,
        provider: 'stripe',
      }),
      purchase(at(day.plus({ days: 1 }), 12, 0), {
        items: [line(502, 'Wine glass', 3, 12000, 25, bar), line(null, 'Gift card', 1, 5000, null, null)],
        tip: 1000,
        serviceFee: 300,
        provider: 'adyen',
      }),
      purchase(at(day, 3, 30), { amount: 1500, provider: 'cash' }),
    ],
  };
}

/** The accounts the tests' export settings map (every rate, `none` and provider of the month). */
export const monthAccounts = {
  sales: { '25': '3001', '12': '3002', none: '3000' },
  vat: { '25': '2611', '12': '2621' },
  paymentProviders: { stripe: '1580', swish: '1581', adyen: '1582', cash: '1910' },
  tips: '2890',
  serviceFees: '3590',
};

/** The summary of the whole month in the legacy format, computed by hand (see the table above). */
export const monthLegacy = {
  totals: { count: 5, amount: 97000, vat: 14896, net: 82104, tip: 3000, serviceFee: 800, total: 100800 },
  items: [
    { itemId: null, name: 'Coffee', unitPrice: 3500, vatRate: 12, quantity: 1, amount: 3500 },
    { itemId: null, name: 'Gift card', unitPrice: 5000, vatRate: null, quantity: 1, amount: 5000 },
    { itemId: 501, name: 'Toast Skagen', unitPrice: 14500, vatRate: 12, quantity: 2, amount: 29000 },
    { itemId: 502, name: 'Wine glass', unitPrice: 12000, vatRate: 25, quantity: 4, amount: 48000 },
  ],
  vats: [
    // 12 %: 29000 (3107) + 3500 (375) + 2000 (214); 25 %: 12000 (2400) + 8000 (1600) + 36000 (7200); none: the gift card and the cash amount.
    { vatRate: 12, amount: 34500, vat: 3696, net: 30804 },
    { vatRate: 25, amount: 56000, vat: 11200, net: 44800 },
    { vatRate: null, amount: 6500, vat: 0, net: 6500 },
  ],
  psp: [
    { paymentProvider: 'adyen', count: 1, amount: 41000, tip: 1000, serviceFee: 300, total: 42300 },
    { paymentProvider: 'cash', count: 1, amount: 1500, tip: 0, serviceFee: 0, total: 1500 },
    { paymentProvider: 'stripe', count: 2, amount: 51000, tip: 2000, serviceFee: 500, total: 53500 },
    { paymentProvider: 'swish', count: 1, amount: 3500, tip: 0, serviceFee: 0, total: 3500 },
  ],
};

const K = { costCenterCode: 'KITCHEN', costCenterName: 'Kitchen' };
const B = { costCenterCode: 'BAR', costCenterName: 'Bar' };

/** The same month split by cost center, by hand: VAT of a cost center's gross per rate, the rest (plain amounts, lines without one, rounding) in the row without one; tips and fees there too. */
export const monthSplit = {
  totals: monthLegacy.totals,
  items: [
    { itemId: null, name: 'Coffee', unitPrice: 3500, vatRate: 12, quantity: 1, amount: 3500 },
    { itemId: null, name: 'Gift card', unitPrice: 5000, vatRate: null, quantity: 1, amount: 5000 },
    { itemId: 501, name: 'Toast Skagen', unitPrice: 14500, vatRate: 12, quantity: 2, amount: 29000, ...K },
    { itemId: 502, name: 'Wine glass', unitPrice: 12000, vatRate: 25, quantity: 4, amount: 48000, ...B },
  ],
  vats: [
    { vatRate: 12, amount: 5500, vat: 589, net: 4911 },
    { vatRate: 12, amount: 29000, vat: 3107, net: 25893, ...K },
    { vatRate: 25, amount: 8000, vat: 1600, net: 6400 },
    { vatRate: 25, amount: 48000, vat: 9600, net: 38400, ...B },
    { vatRate: null, amount: 6500, vat: 0, net: 6500 },
  ],
  psp: [
    { paymentProvider: 'adyen', count: 1, amount: 5000, tip: 1000, serviceFee: 300, total: 6300 },
    { paymentProvider: 'adyen', count: 1, amount: 36000, tip: 0, serviceFee: 0, total: 36000, ...B },
    { paymentProvider: 'cash', count: 1, amount: 1500, tip: 0, serviceFee: 0, total: 1500 },
    { paymentProvider: 'stripe', count: 2, amount: 10000, tip: 2000, serviceFee: 500, total: 12500 },
    { paymentProvider: 'stripe', count: 1, amount: 12000, tip: 0, serviceFee: 0, total: 12000, ...B },
    { paymentProvider: 'stripe', count: 1, amount: 29000, tip: 0, serviceFee: 0, total: 29000, ...K },
    { paymentProvider: 'swish', count: 1, amount: 3500, tip: 0, serviceFee: 0, total: 3500 },
  ],
  costCenters: [
    { costCenterCode: 'BAR', costCenterName: 'Bar', amount: 48000, vat: 9600, net: 38400 },
    { costCenterCode: 'KITCHEN', costCenterName: 'Kitchen', amount: 29000, vat: 3107, net: 25893 },
  ],
};
