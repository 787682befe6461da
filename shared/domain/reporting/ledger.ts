/**
 * From summary rows to ledger postings, and the two file formats that carry them (pure rules: no
 * I/O). One voucher per local day: the providers debited with what they took, sales credited per
 * VAT rate (net, per cost center when the settings split), output VAT per rate, tips and service
 * fees. A voucher always balances: the rows of a day add up (summary.ts). docs/reporting.md#the-export.
 */
import { AppError, type FieldProblem } from '../../errors';
import type { ExportAccounts, ExportSettings, PurchaseSummary } from '../../schemas/reporting';

interface Posting {
  account: string;
  /** Minor units; debit positive, credit negative. */
  amount: number;
  /** The cost center the posting is on (split exports), if any. */
  costCenter?: { code: string; name: string };
}

export interface Voucher {
  /** The location's local date, YYYY-MM-DD. */
  date: string;
  postings: Posting[];
}

const rateKey = (rate: number | null) => (rate === null ? 'none' : String(rate));

/** The accounts the summary's rows need that the settings do not map (422 naming each, before anything is written). */
export function missingAccounts(
  summary: PurchaseSummary,
  settings: Pick<ExportSettings, 'accounts' | 'includeServiceFees'>,
): FieldProblem[] {
  const { accounts } = settings;
  const missing = new Map<string, string>();
  for (const v of summary.vats) {
    if (accounts.sales[rateKey(v.vatRate)] === undefined)
      missing.set(
        `/accounts/sales/${rateKey(v.vatRate)}`,
        v.vatRate === null
          ? 'no sales account for amounts recorded without a VAT rate'
          : `no sales account for VAT rate ${v.vatRate}`,
      );
    if (v.vatRate !== null && v.vat !== 0 && accounts.vat[rateKey(v.vatRate)] === undefined)
      missing.set(`/accounts/vat/${rateKey(v.vatRate)}`, `no VAT account for VAT rate ${v.vatRate}`);
  }
  for (const p of summary.psp) {
    if (accounts.paymentProviders[p.paymentProvider] === undefined)
      missing.set(
        `/accounts/paymentProviders/${p.paymentProvider}`,
        `no account for payment provider ${p.paymentProvider}`,
      );
  }
  if (settings.includeServiceFees && summary.totals.serviceFee > 0 && accounts.serviceFees === undefined)
    missing.set('/accounts/serviceFees', 'no account for service fees');
  return [...missing].map(([path, message]) => ({ path, message }));
}

export class AccountsMissing extends AppError {
  constructor(problems: FieldProblem[]) {
    super(
      'UNPROCESSABLE',
      'The export settings map no ledger account for what the range holds; add them (PUT /api/v1/reporting/export-settings) and export again',
      problems,
    );
  }
}

/** The postings of one day's summary (the settings map every row: missingAccounts is empty). */
export function voucherOf(
  date: string,
  day: PurchaseSummary,
  settings: Pick<ExportSettings, 'accounts' | 'includeServiceFees' | 'splitByCostCenter'>,
): Voucher {
  const { accounts } = settings;
  const merged = new Map<string, Posting>();
  const post = (account: string, amount: number, costCenter?: Posting['costCenter']) => {
    if (amount === 0) return;
    const key = `${account}|${costCenter?.code ?? ''}`;
    const p = merged.get(key) ?? { account, amount: 0, ...(costCenter ? { costCenter } : {}) };
    p.amount += amount;
    merged.set(key, p);
  };
  const fees = settings.includeServiceFees;
  for (const p of day.psp)
    post(accounts.paymentProviders[p.paymentProvider]!, p.amount + p.tip + (fees ? p.serviceFee : 0));
  for (const v of day.vats) {
    const costCenter =
      settings.splitByCostCenter && v.costCenterCode !== undefined
        ? { code: v.costCenterCode, name: v.costCenterName ?? v.costCenterCode }
        : undefined;
    post(accounts.sales[rateKey(v.vatRate)]!, -v.net, costCenter);
    if (v.vatRate !== null) post(accounts.vat[rateKey(v.vatRate)] ?? '', -v.vat);
  }
  post(accounts.tips, -day.totals.tip);
  if (fees) post(accounts.serviceFees ?? '', -day.totals.serviceFee);
  const postings = [...merged.values()].filter((p) => p.amount !== 0);
  const balance = postings.reduce((sum, p) => sum + p.amount, 0);
  if (balance !== 0) throw new Error(`the voucher of ${date} does not balance (${balance})`);
  return { date, postings };
}

export interface ExportHeader {
  companyName: string;
  locationName: string;
  /** Generation date, YYYY-MM-DD. */
  generated: string;
  programVersion: string;
}

/** Swedish names for the chart the file declares (#KONTO), by the role the account plays. */
function accountNames(accounts: ExportAccounts, includeServiceFees: boolean): Map<string, string> {
  const names = new Map<string, string>();
  const name = (account: string | undefined, text: string) =>
    account !== undefined && !names.has(account) && names.set(account, text);
  for (const [rate, account] of Object.entries(accounts.sales))
    name(account, rate === 'none' ? 'Försäljning utan momssats' : `Försäljning ${rate} % moms`);
  for (const [rate, account] of Object.entries(accounts.vat)) name(account, `Utgående moms ${rate} %`);
  for (const [provider, account] of Object.entries(accounts.paymentProviders)) name(account, `Fordran ${provider}`);
  name(accounts.tips, 'Dricks att redovisa');
  if (includeServiceFees) name(accounts.serviceFees, 'Serviceavgifter');
  return names;
}

const compact = (date: string) => date.replaceAll('-', '');
const decimal = (minor: number) =>
  `${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`;
/** Control characters (C0, DEL, C1): none may reach a line of an export file. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/**
 * A SIE field: quoted, with `"` and `\` escaped (the SIE 4B file format, section 5.7), each control
 * character a space. SIE fields may not hold control characters, and a CR or LF inside one would
 * end the line, so that text after it (a name `x\r\n#VER …`) would be read as records of its own.
 */
const quoted = (s: string) => `"${s.replaceAll(CONTROL, ' ').replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/**
 * SIE 4 (type 4I: vouchers from a subsystem, for import into the books; extension `.si`), in the
 * format's PC8 character set (code page 437). Lines end CRLF.
 */
export function sieFile(
  header: ExportHeader,
  vouchers: readonly Voucher[],
  settings: Pick<ExportSettings, 'accounts' | 'includeServiceFees' | 'splitByCostCenter'>,
): string {
  const lines = [
    '#FLAGGA 0',
    '#FORMAT PC8',
    '#SIETYP 4',
    `#PROGRAM "Brigade" ${quoted(header.programVersion)}`,
    `#GEN ${compact(header.generated)}`,
    `#FNAMN ${quoted(header.companyName)}`,
  ];
  const used = new Set(vouchers.flatMap((v) => v.postings.map((p) => p.account)));
  for (const [account, name] of accountNames(settings.accounts, settings.includeServiceFees))
    if (used.has(account)) lines.push(`#KONTO ${account} ${quoted(name)}`);
  const centers = new Map(
    vouchers.flatMap((v) =>
      v.postings.flatMap((p) => (p.costCenter ? [[p.costCenter.code, p.costCenter.name] as const] : [])),
    ),
  );
  if (settings.splitByCostCenter && centers.size > 0) {
    lines.push('#DIM 1 "Kostnadsställe"');
    for (const [code, name] of [...centers].sort()) lines.push(`#OBJEKT 1 ${quoted(code)} ${quoted(name)}`);
  }
  vouchers.forEach((v, i) => {
    lines.push(`#VER "A" ${i + 1} ${compact(v.date)} ${quoted(`${header.locationName} ${v.date}`)}`, '{');
    for (const p of v.postings)
      lines.push(
        `   #TRANS ${p.account} {${p.costCenter ? `1 ${quoted(p.costCenter.code)}` : ''}} ${decimal(p.amount)}`,
      );
    lines.push('}');
  });
  return `${lines.join('\r\n')}\r\n`;
}

/** GBAT10's 29 semicolon-separated columns (docs/reporting.md#gbat10); the ones written here, by number. */
const GBAT10_COLUMNS = 29;

/** What makes a spreadsheet read a cell as a formula or command when it starts with it (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A GBAT10 text cell (a name or code, never a number): `;` becomes `,` and each control character
 * a space, so the cell stays one cell on one line. Text that starts with `=`, `+`, `-`, `@`, a tab
 * or a CR is written `'`-prefixed and quoted, so that a spreadsheet shows it as text instead of
 * running it as a formula; a cell holding `"` is quoted too (`"` doubled). The amount column is a
 * number the writer formats (`-120.00`) and is not passed through here. docs/reporting.md#gbat10.
 */
function gbat10Text(s: string): string {
  const text = s.replaceAll(';', ',').replaceAll(CONTROL, ' ');
  const formula = FORMULA_START.test(s) || FORMULA_START.test(text);
  if (!formula && !text.includes('"')) return text;
  return `"${formula ? "'" : ''}${text.replaceAll('"', '""')}"`;
}

/** GBAT10 (the Mamut / AR10 voucher CSV): one line per posting, vouchers numbered per day, UTF-8. */
export function gbat10File(header: ExportHeader, vouchers: readonly Voucher[]): string {
  const field = gbat10Text;
  const lines = vouchers.flatMap((v, i) =>
    v.postings.map((p) => {
      const cols = Array<string>(GBAT10_COLUMNS).fill('');
      cols[0] = 'GBAT10';
      cols[1] = String(i + 1); // voucher number
      cols[2] = compact(v.date); // voucher date
      cols[3] = '1'; // voucher type
      cols[4] = v.date.slice(5, 7); // period (month)
      cols[5] = v.date.slice(0, 4); // year
      cols[6] = p.account;
      cols[7] = '0'; // VAT code: none, the VAT is posted to its own account
      cols[8] = decimal(p.amount); // balance, debit positive
      cols[20] = field(`${header.locationName} ${v.date}`); // description
      if (p.costCenter) cols[23] = field(p.costCenter.code); // department
      return cols.join(';');
    }),
  );
  return lines.map((l) => `${l}\r\n`).join('');
}

/** Code page 437's characters 0x80-0xFF, in order. */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';
const toCp437 = new Map([...CP437_HIGH].map((ch, i) => [ch, 0x80 + i]));

/** Text in code page 437 (SIE's PC8); a character it lacks becomes `?`. */
export function encodeCp437(text: string): Buffer {
  const chars = [...text];
  const out = Buffer.alloc(chars.length);
  chars.forEach((ch, i) => {
    const code = ch.codePointAt(0)!;
    out[i] = code < 0x80 ? code : (toCp437.get(ch) ?? 0x3f);
  });
  return out;
}

/** Bytes of code page 437 as text (the tests' SIE reader). */
export const decodeCp437 = (bytes: Uint8Array): string =>
  [...bytes].map((b) => (b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80]!)).join('');
