/**
 * Confirmation codes of bookings and waitlist entries (docs/access.md, “Codes”): characters of
 * `CONFIRMATION_ALPHABET`, no look-alikes (no 0/O, 1/I/L). New codes are `CODE_LENGTH` long, so
 * guessing one is hopeless; codes issued before that are 8 long (`LEGACY_CODE_LENGTH`) and keep
 * working: every code field and path accepts both lengths.
 */
export const CONFIRMATION_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 18;
const LEGACY_CODE_LENGTH = 8;
const chars = `[${CONFIRMATION_ALPHABET}]`;
export const CONFIRMATION_PATTERN = new RegExp(
  `^${chars}{${LEGACY_CODE_LENGTH}}(?:${chars}{${CODE_LENGTH - LEGACY_CODE_LENGTH}})?$`,
);
