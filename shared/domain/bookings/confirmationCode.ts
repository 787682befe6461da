import { randomInt } from 'node:crypto';
import { CONFIRMATION_ALPHABET } from '../../schemas/confirmationCode';

/** A new code of the contract's shape (shared/schemas/confirmationCode.ts). Uniqueness is the data layer's. */

export const newConfirmationCode = (): string =>
  Array.from({ length: 8 }, () => CONFIRMATION_ALPHABET[randomInt(CONFIRMATION_ALPHABET.length)]).join('');
