/** The bill rules of docs/purchases.md: what a tab owes, VAT per rate, what a purchase may pay. */
import { describe, expect, it } from 'vitest';
import type { PurchaseLine } from '../../shared/data/purchases';
import { billOf, givenVatRows, lineTotal, purchaseVat, settle, vatIn, vatRowsOf } from '../../shared/domain/tabs/bill';
import { AppError } from '../../shared/errors';

const line = (price: number, quantity = 1, modifications: number[] = []) => ({
  price,
  quantity,
  modifications: modifications.map((p) => ({ price: p })),
});
const pline = (amount: number, vatRate: number | null): PurchaseLine => ({
  itemId: null,
  name: 'x',
  quantity: 1,
  unitPrice: amount,
  amount,
  vatRate,
  costCenter: null,
});
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('not refused');
};

describe('billOf', () => {
  it('adds (price + modifications) × quantity of every dispatch not reversed, and the deposit', () => {
    expect(lineTotal(line(12000, 2, [3000, 500]))).toBe(31000);
    const orders = [
      {
        dispatches: [
          { status: 'served', items: [line(29000, 2)] },
          { status: 'reversed', items: [line(99999)] },
        ],
      },
      { dispatches: [{ status: 'pending', items: [line(12000, 1, [3000])] }] },
    ];
    expect(billOf({ orders, depositCents: 0 })).toBe(73000);
    expect(billOf({ orders, depositCents: 20000 })).toBe(93000);
    expect(billOf({ orders: [], depositCents: 0 })).toBe(0);
  });
});

describe('VAT', () => {
  it('is the VAT contained in a gross amount, rounded to the minor unit', () => {
    expect(vatIn(29000, 12)).toBe(3107);
    expect(vatIn(15000, 25)).toBe(3000);
    expect(vatIn(1000, 0)).toBe(0);
    expect(vatIn(10000, 7.7)).toBe(715);
  });

  it('rows per rate from the lines, in order of first appearance; lines without a rate have none', () => {
    expect(vatRowsOf([pline(1000, 25), pline(2000, 12), pline(500, 25), pline(700, null)])).toEqual([
      { vatRate: 25, amount: 1500, vat: 300 },
      { vatRate: 12, amount: 2000, vat: 214 },
    ]);
  });

  it('checks given rows against the lines, or against the amount', () => {
    const lines = [pline(1000, 25), pline(2000, 12)];
    expect(
      purchaseVat(lines, 3000, [
        { vatRate: 12, amount: 2000 },
        { vatRate: 25, amount: 1000 },
      ]),
    ).toEqual(vatRowsOf(lines));
    expect(refusal(() => purchaseVat(lines, 3000, [{ vatRate: 25, amount: 3000 }])).details[0]!.path).toBe('/vatRows');
    expect(purchaseVat(undefined, 3000, undefined)).toEqual([]);
    expect(purchaseVat(undefined, 3000, [{ vatRate: 25, amount: 3000 }])).toEqual([
      { vatRate: 25, amount: 3000, vat: 600 },
    ]);
    expect(refusal(() => purchaseVat(undefined, 3000, [{ vatRate: 25, amount: 2999 }])).details[0]!.path).toBe(
      '/vatRows',
    );
  });

  it('refuses a rate twice, more than two decimals, or a VAT off by more than one minor unit', () => {
    expect(givenVatRows([{ vatRate: 25, amount: 1000, vat: 201 }])).toEqual([{ vatRate: 25, amount: 1000, vat: 201 }]);
    const paths = (rows: Parameters<typeof givenVatRows>[0]) =>
      refusal(() => givenVatRows(rows)).details.map((d) => d.path);
    expect(paths([{ vatRate: 25, amount: 1000, vat: 202 }])).toEqual(['/vatRows/0/vat']);
    expect(
      paths([
        { vatRate: 25, amount: 1 },
        { vatRate: 25, amount: 2 },
      ]),
    ).toEqual(['/vatRows/1/vatRate']);
    expect(paths([{ vatRate: 12.345, amount: 1 }])).toEqual(['/vatRows/0/vatRate']);
  });
});

describe('settle', () => {
  it('pays part, then the rest; nothing beyond what is due', () => {
    expect(settle(73000, 0, 44000)).toEqual({ paidCents: 44000, settled: false });
    expect(settle(73000, 44000, 29000)).toEqual({ paidCents: 73000, settled: true });
    const over = refusal(() => settle(73000, 44000, 29001));
    expect([over.code, over.details[0]!.path, over.details[0]!.message]).toEqual([
      'UNPROCESSABLE',
      '/amount',
      'at most 29000',
    ]);
    expect(refusal(() => settle(0, 0, 1)).message).toContain('empty');
    expect(refusal(() => settle(5000, 5000, 1)).message).toContain('paid');
  });
});
