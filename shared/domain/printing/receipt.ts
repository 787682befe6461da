/**
 * The pre-check receipt as text lines at a printer's width (docs/printing.md): pure, no I/O.
 *
 *   the location's name centered, then "Table <name>", "Time <the location's wall clock>", "Terminal <name>"
 *   a rule
 *   each line item: its name left, its price right; long names wrap, continuation lines indented
 *     each modification indented two, "+ name", its price right (a zero-price one shows none)
 *   a rule, TOTAL right-aligned
 *   the VAT summary, when any line has a rate: per rate, "VAT <rate>%" and the VAT in it, then
 *     "  net" and the amount without VAT
 *
 * Width counts grapheme clusters (an accented letter written with a combining mark is one column;
 * wide CJK characters and emoji are counted as one, which printers may draw wider). Every line is
 * at most `width` columns; no line ends in spaces. Money is in minor units and printed with two
 * decimals ("145.00"), no currency (the currencies the service serves have two minor digits).
 *
 * No line holds a control character: each one in a text (C0, DEL, C1: ESC/POS commands start with
 * ESC, GS or DLE, and ESC p kicks the cash drawer) becomes a space before the layout, so the printer
 * agent prints text and nothing else, and the columns are the ones the layout counted.
 */

export const MIN_WIDTH = 24;
export const MAX_WIDTH = 64;

export interface ReceiptLine {
  name: string;
  /** Minor units. */
  price: number;
  /** Percent; absent: the line has no rate and is left out of the VAT summary. */
  vatRate?: number | undefined;
  modifications: { name: string; price: number }[];
}

export interface Receipt {
  width: number;
  locationName: string;
  tableName: string;
  /** The time to print, already in the location's zone ("2026-11-23 19:05"). */
  printedAt: string;
  terminalName?: string | undefined;
  lines: ReceiptLine[];
  /** Minor units: the total the terminal asks for (printed as given). */
  totalAmount: number;
}

/**
 * Made on first use: building a Segmenter loads ICU's break data, 15-25 ms that every printing
 * function's cold start paid at import while most of them never lay out a receipt (bench §3).
 */
let segmenter: Intl.Segmenter | undefined;
/** The text's columns: its grapheme clusters. */
const columns = (text: string): string[] =>
  Array.from(
    (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text),
    (s) => s.segment,
  );
const widthOf = (text: string) => columns(text).length;

/** Minor units as a decimal with two places: 14500 → "145.00", -5 → "-0.05". */
export function money(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(Math.round(minor));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A VAT rate as printed: 25 → "25%", 12.5 → "12.5%". */
const rate = (r: number) => `${Number(r.toFixed(2))}%`;

/** Words of `text` in lines of at most `width` columns; a word longer than a line is cut. */
export function wrap(text: string, width: number): string[] {
  const words = text.split(/\s+/).filter((w) => w !== '');
  const lines: string[] = [];
  let current: string[] = [];
  for (const word of words) {
    let cols = columns(word);
    const used = current.length;
    if (used > 0 && used + 1 + cols.length <= width) {
      current.push(' ', ...cols);
      continue;
    }
    if (used > 0) lines.push(current.join(''));
    current = [];
    while (cols.length > width) {
      lines.push(cols.slice(0, width).join(''));
      cols = cols.slice(width);
    }
    current = cols;
  }
  if (current.length > 0) lines.push(current.join(''));
  return lines.length ? lines : [''];
}

/**
 * A label left and an amount right on one line; a label too long for the room left by the amount
 * wraps, its further lines indented two more than the first.
 */
export function row(label: string, amount: string, width: number, indent = 0): string[] {
  const room = Math.max(width - indent - widthOf(amount) - 1, 1);
  const [first, ...rest] = wrap(label, room);
  const head = `${' '.repeat(indent)}${first}`;
  const pad = Math.max(width - widthOf(head) - widthOf(amount), amount === '' ? 0 : 1);
  const out = [`${head}${' '.repeat(pad)}${amount}`.trimEnd()];
  const nextIndent = indent + 2;
  for (const line of rest.flatMap((r) => wrap(r, Math.max(width - nextIndent, 1))))
    out.push(`${' '.repeat(nextIndent)}${line}`);
  return out;
}

const center = (text: string, width: number) =>
  wrap(text, width).map((l) => `${' '.repeat(Math.floor((width - widthOf(l)) / 2))}${l}`);

/** VAT contained in a gross amount at `r` percent, in minor units (rounded half away from zero). */
export const vatOf = (gross: number, r: number) => Math.round((gross * r) / (100 + r));

/** The VAT summary: per rate (ascending), the gross of the lines at it (with their modifications), the VAT and the net. */
export function vatSummary(lines: ReceiptLine[]): { rate: number; gross: number; vat: number; net: number }[] {
  const byRate = new Map<number, number>();
  for (const l of lines) {
    if (l.vatRate === undefined) continue;
    const gross = l.price + l.modifications.reduce((s, m) => s + m.price, 0);
    byRate.set(l.vatRate, (byRate.get(l.vatRate) ?? 0) + gross);
  }
  return [...byRate.entries()]
    .sort(([a], [b]) => a - b)
    .map(([r, gross]) => ({ rate: r, gross, vat: vatOf(gross, r), net: gross - vatOf(gross, r) }));
}

/** Control characters: C0 (ESC, GS, DLE, CR, LF, …), DEL and C1. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;
/** A text as a printer may get it: each control character a space. */
const printable = (text: string) => text.replaceAll(CONTROL_CHARACTERS, ' ');

export function renderReceipt(receipt: Receipt): string[] {
  if (!Number.isInteger(receipt.width) || receipt.width < MIN_WIDTH || receipt.width > MAX_WIDTH)
    throw new RangeError(`width must be ${MIN_WIDTH}-${MAX_WIDTH}, not ${receipt.width}`);
  const r: Receipt = {
    ...receipt,
    locationName: printable(receipt.locationName),
    tableName: printable(receipt.tableName),
    printedAt: printable(receipt.printedAt),
    terminalName: receipt.terminalName === undefined ? undefined : printable(receipt.terminalName),
    lines: receipt.lines.map((l) => ({
      ...l,
      name: printable(l.name),
      modifications: l.modifications.map((m) => ({ ...m, name: printable(m.name) })),
    })),
  };
  const w = r.width;
  const rule = '-'.repeat(w);
  const out: string[] = [
    ...center(r.locationName, w),
    ...wrap(`Table ${r.tableName}`, w),
    ...wrap(`Time ${r.printedAt}`, w),
  ];
  if (r.terminalName !== undefined) out.push(...wrap(`Terminal ${r.terminalName}`, w));
  out.push(rule);
  if (r.lines.length === 0) out.push('(no items)');
  for (const line of r.lines) {
    out.push(...row(line.name, money(line.price), w));
    for (const m of line.modifications) out.push(...row(`+ ${m.name}`, m.price === 0 ? '' : money(m.price), w, 2));
  }
  out.push(rule, ...row('TOTAL', money(r.totalAmount), w));
  const vats = vatSummary(r.lines);
  if (vats.length > 0) {
    out.push('');
    for (const v of vats) out.push(...row(`VAT ${rate(v.rate)}`, money(v.vat), w), ...row('net', money(v.net), w, 2));
  }
  return out;
}
