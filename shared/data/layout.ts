/**
 * A location's layout token (docs/availability.md, “The layout cache”): a random value written anew
 * by every transaction that changes what availability reads of a location besides its bookings,
 * offers and guests: the location itself, its booking settings, its booking groups and its tables.
 * A container keeps the layout it read under the token it read first, and reads the layout again
 * only when the token differs.
 *
 *   C#<cid>#L#<loc:12>#LAYOUT / LAYOUT   token
 *
 * Random, not a counter: a token once replaced never comes back, so no sequence of writes (a
 * location deleted and its partition's items left behind, a table put back as it was) can make a
 * kept layout look current. A location older than the tokens has none until its first layout
 * write or the buckets' backfill (bin/tools/backfill-around.ts): until then nothing is kept.
 */
import { randomUUID } from 'node:crypto';
import type { ReadRequest } from './batch';
import { keys } from './keys';
import { updateStep, type Step } from './transact';

const tokenKey = (companyId: number, locationId: number) => ({
  pk: `${keys.company(companyId)}#L#${keys.pad(locationId)}#LAYOUT`,
  sk: 'LAYOUT',
});

export const layoutToken = {
  /** The step every layout write carries: a new token. A deleted location's gets one too, so a layout kept of it is never current. */
  changedStep: (companyId: number, locationId: number): Step =>
    updateStep(tokenKey(companyId, locationId), { token: randomUUID(), entity: 'LAYOUT' }),

  /** The location's token (undefined: it has none yet), to send with other reads in one round trip. */
  read(companyId: number, locationId: number): ReadRequest<string | undefined> {
    const key = tokenKey(companyId, locationId);
    return {
      keys: [key],
      answer: (found) => {
        const token = found.get(key)?.token;
        return typeof token === 'string' ? token : undefined;
      },
    };
  },
};
