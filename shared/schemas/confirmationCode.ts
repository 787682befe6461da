/** A booking's confirmation code (docs/conventions.md, “Ids”) is 8 characters, no look-alikes (no 0/O, 1/I/L). */
export const CONFIRMATION_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CONFIRMATION_PATTERN = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/;
