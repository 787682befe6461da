/** The pre-check renderer (shared/domain/printing/receipt.ts): layout, widths at the bounds, wrapping, unicode, money, VAT. */
import { describe, expect, it } from 'vitest';
import {
  MAX_WIDTH,
  MIN_WIDTH,
  money,
  renderReceipt,
  row,
  vatOf,
  vatSummary,
  wrap,
  type Receipt,
} from '../../shared/domain/printing/receipt';

const graphemes = (s: string) =>
  Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)).length;

const receipt = (extra: Partial<Receipt> = {}): Receipt => ({
  width: 32,
  locationName: 'Brasserie Nord',
  tableName: 'T4',
  printedAt: '2026-11-23 19:05',
  lines: [
    { name: 'Toast Skagen', price: 14500, vatRate: 12, modifications: [{ name: 'Extra roe', price: 3000 }] },
    { name: 'Lager', price: 7900, vatRate: 25, modifications: [] },
  ],
  totalAmount: 25400,
  ...extra,
});

/** Every line fits the width and none ends in spaces. */
function expectFits(lines: string[], width: number) {
  for (const l of lines) {
    expect(graphemes(l), JSON.stringify(l)).toBeLessThanOrEqual(width);
    expect(l).toBe(l.trimEnd());
  }
}

describe('money', () => {
  it('prints minor units with two decimals', () => {
    expect([
      money(0),
      money(5),
      money(99),
      money(100),
      money(14500),
      money(100_000_000),
      money(-5),
      money(-1250),
    ]).toEqual(['0.00', '0.05', '0.99', '1.00', '145.00', '1000000.00', '-0.05', '-12.50']);
  });
});

describe('the receipt', () => {
  it('has the header, the lines with their modifications, the total and the VAT summary, at 32 columns', () => {
    expect(renderReceipt(receipt())).toEqual([
      '         Brasserie Nord',
      'Table T4',
      'Time 2026-11-23 19:05',
      '--------------------------------',
      'Toast Skagen              145.00',
      '  + Extra roe              30.00',
      'Lager                      79.00',
      '--------------------------------',
      'TOTAL                     254.00',
      '',
      'VAT 12%                    18.75',
      '  net                     156.25',
      'VAT 25%                    15.80',
      '  net                      63.20',
    ]);
  });

  it('names the terminal when known, and prints a zero-price modification without a price', () => {
    const lines = renderReceipt(
      receipt({
        terminalName: 'Bar 1',
        lines: [
          {
            name: 'Coffee',
            price: 3500,
            modifications: [
              { name: 'Oat milk', price: 0 },
              { name: 'No sugar', price: -500 },
            ],
          },
        ],
        totalAmount: 3000,
      }),
    );
    expect(lines).toContain('Terminal Bar 1');
    expect(lines).toContain('  + Oat milk');
    expect(lines.find((l) => l.startsWith('  + No sugar'))).toMatch(/^ {2}\+ No sugar {2,}-5\.00$/);
    expect(lines.find((l) => l.startsWith('  + No sugar'))).toHaveLength(32);
    // No line has a VAT rate: no summary.
    expect(lines.at(-1)).toBe('TOTAL                      30.00');
  });

  it('prints zero lines as "(no items)" and the total as given', () => {
    const lines = renderReceipt(receipt({ lines: [], totalAmount: 0 }));
    expect(lines.slice(4)).toEqual(['(no items)', '-'.repeat(32), 'TOTAL                       0.00']);
  });

  it('fits every line at both bounds of the width, with long names wrapped and long words cut', () => {
    const long = 'Slow-roasted shoulder of lamb with rosemary, garlic confit and a very long description';
    const word = 'Supercalifragilisticexpialidocious-Smörgåsbord-Deluxe-Edition';
    for (const width of [MIN_WIDTH, 42, MAX_WIDTH]) {
      const lines = renderReceipt(
        receipt({
          width,
          locationName: `The ${long} restaurant`,
          tableName: word,
          lines: [
            { name: long, price: 100_000_000, vatRate: 25, modifications: [{ name: word, price: -100_000_000 }] },
          ],
          totalAmount: 10_000_000_000,
        }),
      );
      expectFits(lines, width);
      // The price rides on the first line of the name; the wrapped rest is indented.
      const first = lines.findIndex((l) => l.startsWith('Slow-roasted'));
      expect(lines[first]!.endsWith('1000000.00')).toBe(true);
      expect(lines[first + 1]!.startsWith('  ')).toBe(true);
      // Nothing of the name is lost.
      const nameLines = lines.slice(
        first,
        lines.findIndex((l, i) => i > first && l.startsWith('  + ')),
      );
      expect(nameLines.map((l) => l.replace(/\s+1000000\.00$/, '').trim()).join(' ')).toBe(long);
    }
    expect(renderReceipt(receipt({ width: MIN_WIDTH }))).toContain('-'.repeat(MIN_WIDTH));
  });

  it('refuses a width outside 24-64', () => {
    expect(() => renderReceipt(receipt({ width: MIN_WIDTH - 1 }))).toThrow(RangeError);
    expect(() => renderReceipt(receipt({ width: MAX_WIDTH + 1 }))).toThrow(RangeError);
    expect(() => renderReceipt(receipt({ width: 32.5 }))).toThrow(RangeError);
  });

  it('counts a grapheme as one column: combining marks, emoji, CJK', () => {
    const combining = 'Cafe\u0301 au lait'; // é as e + combining acute
    expect(graphemes(combining)).toBe(12);
    const [line] = row(combining, '45.00', 24);
    expect(line).toBe(`${combining}       45.00`);
    expect(graphemes(line!)).toBe(24);
    const lines = renderReceipt(
      receipt({
        width: 24,
        locationName: '寿司 🍣 Sushi-ya',
        lines: [{ name: '🍣🍣🍣 Omakase 寿司 盛り合わせ deluxe', price: 59000, modifications: [] }],
        totalAmount: 59000,
      }),
    );
    expectFits(lines, 24);
    expect(lines[0]!.trim()).toBe('寿司 🍣 Sushi-ya');
  });
});

describe('control characters (printer commands)', () => {
  const kick = '\x1b\x70\x00\x19\xfa'; // ESC p 0 25 250: open the cash drawer
  const cut = '\x1d\x56\x00'; // GS V 0: cut the paper
  it.each([MIN_WIDTH, 32, MAX_WIDTH])(
    'reach no line: a name carrying ESC/POS bytes prints as text, every line at most %i columns',
    (width) => {
      const lines = renderReceipt(
        receipt({
          width,
          locationName: `Nord${kick}`,
          tableName: `T4${cut}\r\n`,
          terminalName: `Bar${kick}1`,
          lines: [
            {
              name: `Toast${kick}Skagen with a name long enough to wrap${cut}`,
              price: 14500,
              vatRate: 12,
              modifications: [{ name: `${kick}roe`, price: 3000 }],
            },
            { name: `Lager\x10\x14\x01\x00\x05`, price: 7900, vatRate: 25, modifications: [] },
          ],
        }),
      );
      for (const line of lines) {
        expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
        expect(graphemes(line)).toBeLessThanOrEqual(width);
        expect(line).toBe(line.trimEnd());
      }
      expect(lines).toContain('Table T4 V');
      expect(lines.some((l) => l.startsWith('Toast p'))).toBe(true);
      expect(lines).toContain(`Lager${' '.repeat(width - 10)}79.00`);
    },
  );
});

describe('wrap', () => {
  it('breaks at spaces, cuts words longer than a line, and keeps an empty text one empty line', () => {
    expect(wrap('one two three', 7)).toEqual(['one two', 'three']);
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrap('  spaced   out  ', 20)).toEqual(['spaced out']);
    expect(wrap('', 10)).toEqual(['']);
  });
});

describe('the VAT summary', () => {
  it('sums each rate over its lines and their modifications; the VAT is the part of the gross at the rate', () => {
    expect(vatOf(12500, 25)).toBe(2500);
    expect(vatOf(11200, 12)).toBe(1200);
    expect(vatOf(10600, 6)).toBe(600);
    expect(vatOf(999, 0)).toBe(0);
    expect(
      vatSummary([
        { name: 'a', price: 10000, vatRate: 25, modifications: [{ name: 'x', price: 2500 }] },
        { name: 'b', price: 11200, vatRate: 12, modifications: [] },
        { name: 'c', price: 500, modifications: [] },
        { name: 'd', price: 12500, vatRate: 25, modifications: [] },
      ]),
    ).toEqual([
      { rate: 12, gross: 11200, vat: 1200, net: 10000 },
      { rate: 25, gross: 25000, vat: 5000, net: 20000 },
    ]);
  });

  it('prints a rate with decimals as it is', () => {
    const lines = renderReceipt(
      receipt({ lines: [{ name: 'Tea', price: 1077, vatRate: 7.7, modifications: [] }], totalAmount: 1077 }),
    );
    expect(lines).toContain('VAT 7.7%                    0.77');
  });
});
