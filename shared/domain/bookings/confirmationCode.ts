import { randomInt } from 'node:crypto';

/** decisions.md §5: 8 characters, no look-alikes (no 0/O, 1/I/L). Uniqueness is the data layer's. */
export const CONFIRMATION_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CONFIRMATION_PATTERN = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/;

export const newConfirmationCode = (): string =>
  Array.from({ length: 8 }, () => CONFIRMATION_ALPHABET[randomInt(CONFIRMATION_ALPHABET.length)]).join('');
