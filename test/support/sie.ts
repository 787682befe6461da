/**
 * A small SIE 4 reader for the tests: enough of the format (SIE 4B, the SIE group's description)
 * to read back what the export writes — labelled lines, quoted fields with `\"` escapes, object
 * lists in braces, `#VER` blocks of `#TRANS` lines — without the writer's code beyond the code
 * page's table. Amounts are read as minor units.
 */
import { decodeCp437 } from '../../shared/domain/reporting/ledger';

interface SieTrans {
  account: string;
  /** Pairs of dimension and object code. */
  objects: [string, string][];
  /** Minor units, debit positive. */
  amount: number;
}

interface SieVoucher {
  series: string;
  number: string;
  date: string;
  text: string;
  trans: SieTrans[];
}

export interface SieFile {
  /** Every labelled line outside the vouchers, by label, with its fields. */
  records: Map<string, string[][]>;
  accounts: Map<string, string>;
  vouchers: SieVoucher[];
}

/** The fields of a line after its label: words, quoted strings, and `{…}` object lists (kept whole, braces dropped). */
function fields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === ' ' || ch === '\t') {
      i++;
    } else if (ch === '"') {
      let s = '';
      for (i++; i < line.length && line[i] !== '"'; i++) s += line[i] === '\\' ? line[++i] : line[i];
      out.push(s);
      i++;
    } else if (ch === '{') {
      const end = line.indexOf('}', i);
      out.push(line.slice(i + 1, end));
      i = end + 1;
    } else {
      let s = '';
      for (; i < line.length && line[i] !== ' ' && line[i] !== '\t'; i++) s += line[i];
      out.push(s);
    }
  }
  return out;
}

/** Minor units of an SIE amount (`-1234.5`, `12.00`, `7`). */
function minorUnits(amount: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount);
  if (!m) throw new Error(`not an SIE amount: ${amount}`);
  return (m[1] ? -1 : 1) * (Number(m[2]) * 100 + Number((m[3] ?? '0').padEnd(2, '0')));
}

export function readSie(bytes: Uint8Array): SieFile {
  const lines = decodeCp437(bytes)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const file: SieFile = { records: new Map(), accounts: new Map(), vouchers: [] };
  let voucher: SieVoucher | undefined;
  let open = false;
  for (const line of lines) {
    if (line === '{') {
      if (!voucher || open) throw new Error('a block that no #VER opens');
      open = true;
      continue;
    }
    if (line === '}') {
      if (!open) throw new Error('a block closed twice');
      file.vouchers.push(voucher!);
      voucher = undefined;
      open = false;
      continue;
    }
    const [label, ...rest] = fields(line);
    if (open) {
      if (label !== '#TRANS') throw new Error(`${label} inside a voucher`);
      const objects = fields(rest[1] ?? '');
      const pairs: [string, string][] = [];
      for (let i = 0; i + 1 < objects.length; i += 2) pairs.push([objects[i]!, objects[i + 1]!]);
      voucher!.trans.push({ account: rest[0]!, objects: pairs, amount: minorUnits(rest[2]!) });
    } else if (label === '#VER') {
      voucher = { series: rest[0]!, number: rest[1]!, date: rest[2]!, text: rest[3] ?? '', trans: [] };
    } else {
      if (label === '#KONTO') file.accounts.set(rest[0]!, rest[1]!);
      file.records.set(label!, [...(file.records.get(label!) ?? []), rest]);
    }
  }
  if (open || voucher) throw new Error('a #VER without its block');
  return file;
}

/** Every account's total over the vouchers (minor units, debit positive). */
export function accountTotals(file: SieFile): Map<string, number> {
  const totals = new Map<string, number>();
  for (const v of file.vouchers)
    for (const t of v.trans) totals.set(t.account, (totals.get(t.account) ?? 0) + t.amount);
  return totals;
}
