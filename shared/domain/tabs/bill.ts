/**
 * A tab's bill and what a purchase pays of it (docs/purchases.md). Pure: the operations read the
 * tab, its orders and its booking, and ask these rules what is due, whether a purchase fits and
 * whether it settles the tab.
 */
import type { PurchaseLine, VatRow } from '../../data/purchases';
import { unprocessable, validationFailed, type FieldProblem } from '../../errors';

/** What a bill is made of: the lines of its orders (dispatches not reversed) and a required deposit. */
export interface BillSources {
  /** Each order's dispatches with their lines. */
  orders: readonly {
    dispatches: readonly {
      status: string;
      items: readonly { price: number; quantity: number; modifications: readonly { price: number }[] }[];
    }[];
  }[];
  /** The booking's deposit when this tab carries it (the booking's primary tab), else 0. */
  depositCents: number;
}

/** One order line's price: (unit price + modifications) × quantity. */
export const lineTotal = (l: {
  price: number;
  quantity: number;
  modifications: readonly { price: number }[];
}): number => (l.price + l.modifications.reduce((sum, m) => sum + m.price, 0)) * l.quantity;

/** The bill: every line of every dispatch that was not reversed, plus the deposit (a required item). */
export function billOf(s: BillSources): number {
  const ordered = s.orders.flatMap((o) =>
    o.dispatches.filter((d) => d.status !== 'reversed').flatMap((d) => d.items.map(lineTotal)),
  );
  return ordered.reduce((sum, n) => sum + n, 0) + s.depositCents;
}

/** The VAT contained in a gross amount at a rate (percent), rounded to the minor unit. */
export const vatIn = (gross: number, rate: number): number => Math.round((gross * rate) / (100 + rate));

/** VAT rows per rate of the lines that name a rate (in order of first appearance). */
export function vatRowsOf(lines: readonly PurchaseLine[]): VatRow[] {
  const byRate = new Map<number, number>();
  for (const l of lines) if (l.vatRate !== null) byRate.set(l.vatRate, (byRate.get(l.vatRate) ?? 0) + l.amount);
  return [...byRate].map(([vatRate, amount]) => ({ vatRate, amount, vat: vatIn(amount, vatRate) }));
}

/** Rows as given: each rate once, at most two decimals, the VAT computed when not given and checked (±1 minor unit) when given. */
export function givenVatRows(rows: readonly { vatRate: number; amount: number; vat?: number | undefined }[]): VatRow[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<number>();
  const out = rows.map((r, i): VatRow => {
    if (Math.round(r.vatRate * 100) !== r.vatRate * 100)
      problems.push({ path: `/vatRows/${i}/vatRate`, message: 'has at most two decimals' });
    if (seen.has(r.vatRate))
      problems.push({ path: `/vatRows/${i}/vatRate`, message: 'names a rate another row names' });
    seen.add(r.vatRate);
    const vat = vatIn(r.amount, r.vatRate);
    if (r.vat !== undefined && Math.abs(r.vat - vat) > 1)
      problems.push({ path: `/vatRows/${i}/vat`, message: `is not the VAT of ${r.amount} at ${r.vatRate}% (${vat})` });
    return { vatRate: r.vatRate, amount: r.amount, vat: r.vat ?? vat };
  });
  if (problems.length) throw validationFailed('The VAT rows are not valid', problems);
  return out;
}

/**
 * The VAT rows of a purchase: computed from its lines (rows given must then match them), or as
 * given for a plain amount (their gross must add up to it). None for an amount without rows.
 */
export function purchaseVat(
  lines: readonly PurchaseLine[] | undefined,
  amount: number,
  given: readonly { vatRate: number; amount: number; vat?: number }[] | undefined,
): VatRow[] {
  const rows = given ? givenVatRows(given) : undefined;
  if (lines) {
    const computed = vatRowsOf(lines);
    if (rows) {
      const key = (r: VatRow) => `${r.vatRate}:${r.amount}`;
      const same = rows.length === computed.length && rows.every((r) => computed.some((c) => key(c) === key(r)));
      if (!same) {
        const expected = computed.map((c) => `${c.vatRate}%: ${c.amount}`).join(', ') || 'none (no line names a rate)';
        throw validationFailed('The VAT rows do not match the lines', [
          { path: '/vatRows', message: `the lines give ${expected}` },
        ]);
      }
    }
    return computed;
  }
  if (!rows) return [];
  const gross = rows.reduce((sum, r) => sum + r.amount, 0);
  if (gross !== amount)
    throw validationFailed('The VAT rows do not add up to the amount', [
      { path: '/vatRows', message: `add up to ${gross}, the amount is ${amount}` },
    ]);
  return rows;
}

export interface Settlement {
  /** The tab's paid total after the purchase. */
  paidCents: number;
  /** Whether the bill is paid in full afterwards. */
  settled: boolean;
}

/**
 * What a purchase of `amount` does to a tab with `bill` and `paid` so far: 422 when nothing is
 * due or it pays more than is due (tips and service fees are the only amounts beyond the bill).
 */
export function settle(bill: number, paid: number, amount: number): Settlement {
  const due = bill - paid;
  if (due <= 0)
    throw unprocessable(
      bill === 0 ? 'Nothing is due on this tab: its bill is empty' : 'Nothing is due on this tab: its bill is paid',
      [{ path: '/amount', message: 'nothing is due' }],
    );
  if (amount > due)
    throw unprocessable(
      `The purchase pays ${amount}, more than is due (${due}); add what is beyond the bill as a tip`,
      [{ path: '/amount', message: `at most ${due}` }],
    );
  return { paidCents: paid + amount, settled: paid + amount === bill };
}
