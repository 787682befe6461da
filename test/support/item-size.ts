/**
 * An item's size as DynamoDB counts it, against its 400 KB limit and in write units: each
 * attribute's name in UTF-8 bytes plus its value, a string's UTF-8 bytes, a number's one byte per
 * two significant digits (leading and trailing zeros trimmed) plus one, a boolean or null one byte.
 * The items measured with it (the purchase day totals) hold nothing else.
 */

/** The most a number takes: 38 significant digits, DynamoDB's widest. */
export const WIDEST_NUMBER_BYTES = 20;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** Bytes of a number as DynamoDB stores it. */
function numberBytes(value: number): number {
  const [mantissa] = Math.abs(value).toString().split('e');
  const digits = mantissa!.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

export function itemBytes(item: Record<string, unknown>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) {
    size += utf8(name);
    if (typeof value === 'string') size += utf8(value);
    else if (typeof value === 'number') size += numberBytes(value);
    else if (typeof value === 'boolean' || value === null) size += 1;
    else throw new Error(`${name}: itemBytes measures flat items of strings, numbers and booleans`);
  }
  return size;
}
