/**
 * The VAT of a plain amount paid on a tab (docs/purchases.md, “VAT of a plain amount”): the bill's
 * rows per rate shared out in proportion, in whole minor units that add up to the amount, and a
 * payment of everything due closing each rate exactly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { VatRow } from '../../shared/data/purchases';
import { billByRate, shareOut, sharedVatRows, vatIn, type RateAmount } from '../../shared/domain/tabs/bill';

const lineAt = (price: number, quantity: number, vatRate?: number) => ({
  price,
  quantity,
  modifications: [],
  ...(vatRate === undefined ? {} : { vatRate }),
});
const sum = (ns: readonly number[]) => ns.reduce((a, b) => a + b, 0);

describe('billByRate', () => {
  it('sums the lines of dispatches not reversed per rate, lines without a rate and the deposit in the row without one', () => {
    const orders = [
      { dispatches: [{ status: 'served', items: [lineAt(29000, 2, 12)] }] },
      {
        dispatches: [
          { status: 'pending', items: [lineAt(12000, 1, 25), lineAt(500, 2)] },
          { status: 'reversed', items: [lineAt(99999, 1, 6)] },
        ],
      },
    ];
    expect(billByRate({ orders, depositCents: 2000 })).toEqual([
      { vatRate: 12, amount: 58000 },
      { vatRate: 25, amount: 12000 },
      { vatRate: null, amount: 3000 },
    ]);
  });
});

describe('shareOut', () => {
  it('shares in proportion, rounding so that the shares add up (largest remainder)', () => {
    expect(shareOut(40000, [58000, 12000])).toEqual([33143, 6857]);
    expect(shareOut(1, [1, 1, 1])).toEqual([1, 0, 0]);
    expect(shareOut(2, [1, 1, 1])).toEqual([1, 1, 0]);
    expect(shareOut(100, [0, 0])).toEqual([0, 0]);
  });

  it('is exact on amounts whose products pass 2^53 (integer arithmetic)', () => {
    const big = 9_000_000_000_000;
    const shares = shareOut(99_999_999, [big, big + 1, 3]);
    expect(sum(shares)).toBe(99_999_999);
    expect(shares[2]).toBe(0);
  });

  it('property: the shares add up to the amount, and none is off its exact proportion by a unit or more', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.array(fc.integer({ min: 0, max: 1_000_000_000 }), { minLength: 1, maxLength: 10 }),
        (amount, weights) => {
          const total = sum(weights);
          fc.pre(total > 0);
          const shares = shareOut(amount, weights);
          expect(sum(shares)).toBe(amount);
          shares.forEach((s, i) => {
            expect(Number.isInteger(s)).toBe(true);
            expect(Math.abs(s - (amount * weights[i]!) / total)).toBeLessThan(1);
          });
        },
      ),
    );
  });
});

describe('sharedVatRows', () => {
  const evening: RateAmount[] = [
    { vatRate: 12, amount: 58000 },
    { vatRate: 25, amount: 12000 },
  ];

  it("the README's evening: 400.00 then 300.00 of a 700.00 bill at 12 % and 25 %", () => {
    const first = sharedVatRows(evening, [], 40000);
    expect(first).toEqual([
      { vatRate: 12, amount: 33143, vat: vatIn(33143, 12) },
      { vatRate: 25, amount: 6857, vat: vatIn(6857, 25) },
    ]);
    const last = sharedVatRows(evening, [{ amount: 40000, vatRows: first }], 30000);
    expect(last.map((r) => [r.vatRate, r.amount])).toEqual([
      [12, 58000 - 33143],
      [25, 12000 - 6857],
    ]);
    // The VAT of the two payments is the VAT of the bill at each rate.
    expect(first[0]!.vat + last[0]!.vat).toBe(vatIn(58000, 12));
    expect(first[1]!.vat + last[1]!.vat).toBe(vatIn(12000, 25));
  });

  it('shares what is left per rate after purchases that paid lines of one rate', () => {
    const paidWine: VatRow[] = [{ vatRate: 25, amount: 12000, vat: 2400 }];
    expect(sharedVatRows(evening, [{ amount: 12000, vatRows: paidWine }], 20000)).toEqual([
      { vatRate: 12, amount: 20000, vat: vatIn(20000, 12) },
    ]);
  });

  it('leaves the part without a rate (lines without one, the deposit) out of the rows', () => {
    const bill: RateAmount[] = [
      { vatRate: 12, amount: 10000 },
      { vatRate: null, amount: 10000 },
    ];
    expect(sharedVatRows(bill, [], 5000)).toEqual([{ vatRate: 12, amount: 2500, vat: vatIn(2500, 12) }]);
    expect(sharedVatRows([{ vatRate: null, amount: 5000 }], [], 5000)).toEqual([]);
  });

  it('earlier rows at a rate the bill lacks, or beyond it, never make a negative row', () => {
    const odd: VatRow[] = [{ vatRate: 6, amount: 30000, vat: 1698 }];
    const rows = sharedVatRows(evening, [{ amount: 30000, vatRows: odd }], 40000);
    expect(sum(rows.map((r) => r.amount))).toBe(40000);
    expect(rows.every((r) => r.amount >= 0 && r.vat >= 0)).toBe(true);
  });

  it("property: each payment's rows add up to it; payments that settle the bill add up per rate to the bill exactly", () => {
    const rate = fc.constantFrom(0, 6, 12, 12.5, 25);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ vatRate: rate, amount: fc.integer({ min: 1, max: 10_000_000 }) }), {
          minLength: 1,
          maxLength: 5,
          selector: (r) => r.vatRate,
        }),
        fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 0, maxLength: 8 }),
        (bill, cuts) => {
          const total = sum(bill.map((b) => b.amount));
          // Partial payments at the given weights, then the rest.
          const weight = sum(cuts) + 1;
          const payments = cuts.map((c) => Math.floor((total * c) / weight)).filter((a) => a > 0);
          const paid: { amount: number; vatRows: VatRow[] }[] = [];
          let due = total;
          for (const amount of [...payments, Number.POSITIVE_INFINITY]) {
            const pay = Math.min(amount, due);
            if (pay <= 0) break;
            const rows = sharedVatRows(bill, paid, pay);
            expect(sum(rows.map((r) => r.amount))).toBe(pay);
            for (const r of rows) expect(r.vat).toBeGreaterThanOrEqual(0);
            paid.push({ amount: pay, vatRows: rows });
            due -= pay;
          }
          expect(due).toBe(0);
          for (const b of bill) {
            const atRate = paid.flatMap((p) => p.vatRows).filter((r) => r.vatRate === b.vatRate);
            expect(sum(atRate.map((r) => r.amount))).toBe(b.amount);
            expect(sum(atRate.map((r) => r.vat))).toBe(vatIn(b.amount, b.vatRate!));
            // Each row's VAT is within a minor unit of the VAT of its own gross.
            for (const r of atRate) expect(Math.abs(r.vat - vatIn(r.amount, r.vatRate))).toBeLessThanOrEqual(1);
          }
        },
      ),
    );
  });
});
