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
      items: readonly {
        price: number;
        quantity: number;
        vatRate?: number | undefined;
        modifications: readonly { price: number }[];
      }[];
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

/** Gross of a bill at one VAT rate; `vatRate` null for lines without a rate and the deposit. */
export interface RateAmount {
  vatRate: number | null;
  amount: number;
}

/** The bill per VAT rate (ascending, without a rate last): the lines of `billOf` by their rate, the deposit without one. */
export function billByRate(s: BillSources): RateAmount[] {
  const byRate = new Map<number | null, number>();
  const add = (rate: number | null, amount: number) => byRate.set(rate, (byRate.get(rate) ?? 0) + amount);
  for (const o of s.orders)
    for (const d of o.dispatches)
      if (d.status !== 'reversed') for (const l of d.items) add(l.vatRate ?? null, lineTotal(l));
  if (s.depositCents > 0) add(null, s.depositCents);
  return [...byRate]
    .filter(([, amount]) => amount !== 0)
    .map(([vatRate, amount]) => ({ vatRate, amount }))
    .sort(byRateAscending);
}

const byRateAscending = (a: { vatRate: number | null }, b: { vatRate: number | null }): number =>
  a.vatRate === b.vatRate ? 0 : a.vatRate === null ? 1 : b.vatRate === null ? -1 : a.vatRate - b.vatRate;

/** What earlier purchases of a tab paid per rate: their VAT rows, and what no row covered without a rate. */
function paidByRate(
  paid: readonly { amount: number; vatRows: readonly VatRow[] }[],
): Map<number | null, { amount: number; vat: number }> {
  const byRate = new Map<number | null, { amount: number; vat: number }>();
  const add = (rate: number | null, amount: number, vat: number) => {
    const row = byRate.get(rate) ?? { amount: 0, vat: 0 };
    byRate.set(rate, { amount: row.amount + amount, vat: row.vat + vat });
  };
  for (const p of paid) {
    for (const r of p.vatRows) add(r.vatRate, r.amount, r.vat);
    const rest = p.amount - p.vatRows.reduce((sum, r) => sum + r.amount, 0);
    if (rest !== 0) add(null, rest, 0);
  }
  return byRate;
}

/**
 * `amount` shared out over `weights` in proportion, in whole minor units that add up to `amount`
 * (largest remainder: each share rounded down, the units left go to the largest remainders, ties
 * to the larger weight, then the earlier row). Integer arithmetic throughout (BigInt products).
 */
export function shareOut(amount: number, weights: readonly number[]): number[] {
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (total <= 0) return weights.map(() => 0);
  const big = BigInt(amount);
  const bigTotal = BigInt(total);
  const parts = weights.map((w, i) => {
    const product = big * BigInt(w);
    return { i, w, share: Number(product / bigTotal), remainder: product % bigTotal };
  });
  let left = amount - parts.reduce((sum, p) => sum + p.share, 0);
  const order = [...parts].sort((a, b) =>
    a.remainder !== b.remainder ? (a.remainder > b.remainder ? -1 : 1) : b.w - a.w || a.i - b.i,
  );
  for (const p of order) {
    if (left <= 0) break;
    p.share += 1;
    left -= 1;
  }
  return parts.map((p) => p.share);
}

/**
 * The VAT rows of a plain amount paid on a tab without rows of its own (docs/purchases.md, “VAT of
 * a plain amount”): the bill's gross per rate less what earlier purchases paid at each rate is
 * what is left per rate, and the amount is shared out over it in proportion (shareOut: the rows
 * and the part without a rate add up to the amount). A payment of everything that is due takes
 * each rate's remainder exactly. A row's VAT is the VAT of the rate's running total less the VAT
 * paid at the rate before (within a minor unit of the VAT of its own gross), so the VAT paid at a
 * rate never drifts from the VAT of what was paid at it: once paid, the purchases' amounts and VAT
 * per rate are the bill's. The part without a rate (lines without one, the deposit) has no row.
 */
export function sharedVatRows(
  bill: readonly RateAmount[],
  paid: readonly { amount: number; vatRows: readonly VatRow[] }[],
  amount: number,
): VatRow[] {
  const before = paidByRate(paid);
  const left = bill.map((b) => ({ ...b, left: b.amount - (before.get(b.vatRate)?.amount ?? 0) }));
  const due = bill.reduce((sum, b) => sum + b.amount, 0) - paid.reduce((sum, p) => sum + p.amount, 0);
  const exact = amount === due && left.every((l) => l.left >= 0) && left.reduce((sum, l) => sum + l.left, 0) === amount;
  const shares = exact
    ? left.map((l) => l.left)
    : shareOut(
        amount,
        left.map((l) => Math.max(0, l.left)),
      );
  const rows: VatRow[] = [];
  left.forEach((l, i) => {
    const share = shares[i]!;
    if (l.vatRate === null || share === 0) return;
    const prior = before.get(l.vatRate) ?? { amount: 0, vat: 0 };
    const own = vatIn(share, l.vatRate);
    const running = vatIn(prior.amount + share, l.vatRate) - prior.vat;
    const vat = Math.min(share, Math.max(0, own - 1, Math.min(own + 1, running)));
    rows.push({ vatRate: l.vatRate, amount: share, vat });
  });
  return rows;
}

/** The bill at one rate as a tab's answer shows it: billed, the VAT in it, paid and due. */
export interface BillVatRow {
  vatRate: number | null;
  amount: number;
  vat: number;
  paidCents: number;
  dueCents: number;
}

/**
 * The bill per rate beside what the tab's purchases paid at each (their VAT rows; what no row
 * covered counts without a rate): one row per rate billed or paid, ascending, the row without a
 * rate last. The rows' `amount` adds up to the bill, their `paidCents` to what was paid.
 */
export function billVatRows(
  bill: readonly RateAmount[],
  paid: readonly { amount: number; vatRows: readonly VatRow[] }[],
): BillVatRow[] {
  const before = paidByRate(paid);
  const rates = [...new Set([...bill.map((b) => b.vatRate), ...before.keys()])];
  return rates
    .map((vatRate): BillVatRow => {
      const amount = bill.find((b) => b.vatRate === vatRate)?.amount ?? 0;
      const paidCents = before.get(vatRate)?.amount ?? 0;
      return {
        vatRate,
        amount,
        vat: vatRate === null ? 0 : vatIn(amount, vatRate),
        paidCents,
        dueCents: amount - paidCents,
      };
    })
    .sort(byRateAscending);
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
