import { randomInt } from 'node:crypto';
import { CODE_LENGTH, CONFIRMATION_ALPHABET } from '../../schemas/confirmationCode';

/**
 * A new code of bookings and waitlist entries: `CODE_LENGTH` characters drawn with a CSPRNG
 * (shared/schemas/confirmationCode.ts; why that length: docs/access.md, “Codes”). Uniqueness is
 * the data layer's.
 */
export const newConfirmationCode = (): string =>
  Array.from({ length: CODE_LENGTH }, () => CONFIRMATION_ALPHABET[randomInt(CONFIRMATION_ALPHABET.length)]).join('');
