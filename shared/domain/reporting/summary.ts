/**
 * The purchase summary's rows from the day totals' counters (a pure rule: no I/O). The counters
 * are those `dayTotals` (shared/data/purchases.ts) adds per purchase; summed over any set of days
 * they give the rows of those days. The summary sums a range; the export sums each day alone.
 * docs/reporting.md#the-purchase-summary defines every row.
 */
import { sumCounters } from '../../data/purchases';
import type { PurchaseSummary } from '../../schemas/reporting';
import { vatIn } from '../tabs/bill';

export { sumCounters };

type Summary = PurchaseSummary;
type ItemRow = Summary['items'][number];
type VatRowOut = Summary['vats'][number];
type PspRow = Summary['psp'][number];
type CostCenterRow = NonNullable<Summary['costCenters']>[number];

const dec = (part: string) => decodeURIComponent(part);
const rateOf = (part: string): number | null => (part === '' ? null : Number(part));

interface Parsed {
  n: number;
  amount: number;
  tip: number;
  serviceFee: number;
  /** per rate key: gross and VAT */
  vat: Map<string, { amount: number; vat: number }>;
  psp: Map<string, { amount: number; tip: number; serviceFee: number; n: number }>;
  lines: {
    itemId: number | null;
    unitPrice: number;
    vatRate: number | null;
    code: string;
    name: string;
    quantity: number;
  }[];
  /** code → name → gross */
  ccNames: Map<string, Map<string, number>>;
  /** provider → code ('' none) → share */
  ccpsp: Map<string, Map<string, { amount: number; n: number }>>;
}

function parse(c: Record<string, number>): Parsed {
  const p: Parsed = {
    n: c.n ?? 0,
    amount: c.amount ?? 0,
    tip: c.tip ?? 0,
    serviceFee: c.serviceFee ?? 0,
    vat: new Map(),
    psp: new Map(),
    lines: [],
    ccNames: new Map(),
    ccpsp: new Map(),
  };
  for (const [name, value] of Object.entries(c)) {
    const parts = name.split('|');
    switch (parts[0]) {
      case 'vat': {
        const row = p.vat.get(parts[1]!) ?? { amount: 0, vat: 0 };
        if (parts[2] === 'amount') row.amount += value;
        else if (parts[2] === 'vat') row.vat += value;
        p.vat.set(parts[1]!, row);
        break;
      }
      case 'psp': {
        const row = p.psp.get(parts[1]!) ?? { amount: 0, tip: 0, serviceFee: 0, n: 0 };
        const field = parts[2] as keyof typeof row;
        if (field in row) row[field] += value;
        p.psp.set(parts[1]!, row);
        break;
      }
      case 'line':
        if (parts.length === 6)
          p.lines.push({
            itemId: parts[1] === '' ? null : Number(parts[1]),
            unitPrice: Number(parts[2]),
            vatRate: rateOf(parts[3]!),
            code: dec(parts[4]!),
            name: dec(parts[5]!),
            quantity: value,
          });
        break;
      case 'cc': {
        const names = p.ccNames.get(dec(parts[1]!)) ?? new Map<string, number>();
        names.set(dec(parts[2]!), (names.get(dec(parts[2]!)) ?? 0) + value);
        p.ccNames.set(dec(parts[1]!), names);
        break;
      }
      case 'ccpsp': {
        const byCode = p.ccpsp.get(parts[1]!) ?? new Map<string, { amount: number; n: number }>();
        const row = byCode.get(dec(parts[2]!)) ?? { amount: 0, n: 0 };
        if (parts[3] === 'amount') row.amount += value;
        else if (parts[3] === 'n') row.n += value;
        byCode.set(dec(parts[2]!), row);
        p.ccpsp.set(parts[1]!, byCode);
        break;
      }
      default:
        break; // n, amount, tip, serviceFee (read above); counters of older shapes are left out
    }
  }
  return p;
}

/** A cost center's name: the one its lines carried for the most money (ties: the first in order); names change as items are renamed. */
function nameOf(p: Parsed, code: string): string {
  const names = [...(p.ccNames.get(code) ?? new Map<string, number>())].sort(
    (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1),
  );
  return names[0]?.[0] ?? code;
}

const byKeys =
  <T>(...keys: ((row: T) => string | number | null | undefined)[]) =>
  (a: T, b: T): number => {
    for (const key of keys) {
      const x = key(a);
      const y = key(b);
      if (x === y) continue;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return x < y ? -1 : 1;
    }
    return 0;
  };

const withCostCenter = (p: Parsed, code: string) =>
  code === '' ? {} : { costCenterCode: code, costCenterName: nameOf(p, code) };

/** Adds `value` under `key`, making the entry with `init` first. */
function tally<K, V>(map: Map<K, V>, key: K, init: () => V, add: (v: V) => void): void {
  const v = map.get(key) ?? init();
  add(v);
  map.set(key, v);
}

function itemRows(p: Parsed, split: boolean): ItemRow[] {
  const rows = new Map<string, ItemRow>();
  for (const l of p.lines) {
    const code = split ? l.code : '';
    const key = JSON.stringify([l.itemId, l.name, l.unitPrice, l.vatRate, code]);
    tally(
      rows,
      key,
      (): ItemRow => ({
        itemId: l.itemId,
        name: l.name,
        unitPrice: l.unitPrice,
        vatRate: l.vatRate,
        quantity: 0,
        amount: 0,
        ...withCostCenter(p, code),
      }),
      (r) => {
        r.quantity += l.quantity;
        r.amount += l.quantity * l.unitPrice;
      },
    );
  }
  return [...rows.values()].sort(
    byKeys(
      (r) => r.name,
      (r) => r.itemId,
      (r) => r.unitPrice,
      (r) => r.vatRate,
      (r) => r.costCenterCode ?? '',
    ),
  );
}

/**
 * VAT rows: one per rate, and a row without a rate (`vatRate: null`, no VAT) for what no VAT row
 * covered. Split: each rate's lines by cost center (VAT computed on the cost center's gross), and
 * the rest of the rate (plain amounts, lines without a cost center, the VAT's rounding) in the row
 * without one, so that the rows of a rate add up to its totals exactly.
 */
function vatRows(p: Parsed, split: boolean): VatRowOut[] {
  const byRate = new Map<string, { amount: number; vat: number }>(p.vat);
  const covered = [...byRate.values()].reduce((sum, r) => sum + r.amount, 0);
  if (p.amount - covered !== 0) byRate.set('', { amount: p.amount - covered, vat: 0 });
  const rows: VatRowOut[] = [];
  for (const [key, total] of byRate) {
    const vatRate = rateOf(key);
    if (!split) {
      rows.push({ vatRate, amount: total.amount, vat: total.vat, net: total.amount - total.vat });
      continue;
    }
    const gross = new Map<string, number>();
    for (const l of p.lines)
      if (l.code !== '' && l.vatRate === vatRate)
        gross.set(l.code, (gross.get(l.code) ?? 0) + l.quantity * l.unitPrice);
    let restAmount = total.amount;
    let restVat = total.vat;
    for (const [code, amount] of gross) {
      const vat = vatRate === null ? 0 : vatIn(amount, vatRate);
      rows.push({ vatRate, amount, vat, net: amount - vat, ...withCostCenter(p, code) });
      restAmount -= amount;
      restVat -= vat;
    }
    if (restAmount !== 0 || restVat !== 0)
      rows.push({ vatRate, amount: restAmount, vat: restVat, net: restAmount - restVat });
  }
  return rows.sort(
    byKeys(
      (r) => r.vatRate,
      (r) => (r.costCenterCode === undefined ? '' : `~${r.costCenterCode}`),
    ),
  );
}

/** Provider rows; split: each provider's money by cost center, tips and service fees in the row without one. */
function pspRows(p: Parsed, split: boolean): PspRow[] {
  const rows: PspRow[] = [];
  for (const [provider, t] of p.psp) {
    if (!split) {
      rows.push({
        paymentProvider: provider,
        count: t.n,
        amount: t.amount,
        tip: t.tip,
        serviceFee: t.serviceFee,
        total: t.amount + t.tip + t.serviceFee,
      });
      continue;
    }
    for (const [code, share] of p.ccpsp.get(provider) ?? []) {
      const [tip, serviceFee] = code === '' ? [t.tip, t.serviceFee] : [0, 0];
      rows.push({
        paymentProvider: provider,
        count: share.n,
        amount: share.amount,
        tip,
        serviceFee,
        total: share.amount + tip + serviceFee,
        ...withCostCenter(p, code),
      });
    }
  }
  return rows.sort(
    byKeys(
      (r) => r.paymentProvider,
      (r) => (r.costCenterCode === undefined ? '' : `~${r.costCenterCode}`),
    ),
  );
}

/** The summary of the counters: the legacy format, or with `split` the cost-center rows and `costCenters`. */
export function summarize(counters: Record<string, number>, split: boolean): Summary {
  const p = parse(counters);
  const vats = vatRows(p, split);
  const vat = vats.reduce((sum, r) => sum + r.vat, 0);
  const summary: Summary = {
    totals: {
      count: p.n,
      amount: p.amount,
      vat,
      net: p.amount - vat,
      tip: p.tip,
      serviceFee: p.serviceFee,
      total: p.amount + p.tip + p.serviceFee,
    },
    items: itemRows(p, split),
    vats,
    psp: pspRows(p, split),
  };
  if (!split) return summary;
  const centers = new Map<string, CostCenterRow>();
  for (const r of vats) {
    if (r.costCenterCode === undefined) continue;
    tally(
      centers,
      r.costCenterCode,
      (): CostCenterRow => ({
        costCenterCode: r.costCenterCode!,
        costCenterName: r.costCenterName!,
        amount: 0,
        vat: 0,
        net: 0,
      }),
      (c) => {
        c.amount += r.amount;
        c.vat += r.vat;
        c.net += r.net;
      },
    );
  }
  return { ...summary, costCenters: [...centers.values()].sort(byKeys((c) => c.costCenterCode)) };
}
