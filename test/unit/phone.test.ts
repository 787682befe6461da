/**
 * The phone metadata the API ships (shared/domain/phoneMetadata.ts): libphonenumber-js's `min` set
 * less its display formats. It must be the installed library's, and read numbers exactly as the
 * library's own `min` metadata does.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/core';
import minMetadata from 'libphonenumber-js/min/metadata';
import { describe, expect, it } from 'vitest';
import { metadataModule } from '../../bin/tools/gen-phone-metadata';
import { phoneMetadata } from '../../shared/domain/phoneMetadata';
import { readFileSync } from 'node:fs';

describe('shared/domain/phoneMetadata.ts', () => {
  it('is what bin/tools/gen-phone-metadata.ts makes of the installed libphonenumber-js (run it after an upgrade)', () => {
    expect(readFileSync(new URL('../../shared/domain/phoneMetadata.ts', import.meta.url), 'utf8')).toBe(
      metadataModule(),
    );
  });

  it('is smaller than the min metadata by its formats, and has every country', () => {
    expect(JSON.stringify(phoneMetadata).length).toBeLessThan(JSON.stringify(minMetadata).length / 2);
    expect(Object.keys(phoneMetadata.countries)).toEqual(Object.keys(minMetadata.countries));
  });

  const samples: [string, CountryCode | undefined][] = [
    ['+46 70 123 45 67', undefined],
    ['070-123 45 67', 'SE'],
    ['08-123 456 78', 'SE'],
    ['+46 00 123 4567', undefined],
    ['070 123', 'SE'],
    ['+44 20 7946 0958', undefined],
    ['07911 123456', 'GB'],
    ['+44 7700 900123', undefined],
    ['+1 415 555 0100', undefined],
    ['(212) 555-0100', 'US'],
    ['+1 604 555 0100', undefined],
    ['+7 495 123 45 67', undefined],
    ['8 (800) 555-35-35', 'RU'],
    ['+49 30 123456', undefined],
    ['030 123456', 'DE'],
    ['+39 06 1234 5678', undefined],
    ['06 1234 5678', 'IT'],
    ['+33 6 12 34 56 78', undefined],
    ['+61 2 9876 5432', undefined],
    ['+81 3-1234-5678', undefined],
    ['+86 10 1234 5678', undefined],
    ['+91 98765 43210', undefined],
    ['+55 11 91234-5678', undefined],
    ['+54 9 11 1234-5678', undefined],
    ['+52 55 1234 5678', undefined],
    ['+800 1234 5678', undefined],
    ['+882 1234 5678', undefined],
    ['+358 40 123 4567', undefined],
    ['+47 912 34 567', undefined],
    ['+45 20 12 34 56', undefined],
  ];

  it.each(samples)("reads %s (at %s) as the library's min metadata does", (raw, country) => {
    const options = country ? { defaultCountry: country } : {};
    const ours = parsePhoneNumberFromString(raw, options, phoneMetadata);
    const theirs = parsePhoneNumberFromString(raw, options, minMetadata);
    expect(ours?.number).toBe(theirs?.number);
    expect(ours?.country).toBe(theirs?.country);
    expect(ours?.isValid()).toBe(theirs?.isValid());
    expect(ours?.isPossible()).toBe(theirs?.isPossible());
  });
});
