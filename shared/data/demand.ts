/**
 * What a location's dates were asked for, while its selling policy is on (docs/optimizer.md, "The
 * selling policy"): one item per location and date, `C#<cid>` / `DEMAND#<loc:12>#<date>`, one
 * number attribute per kind of request (`ask:<party>@<start minute>+<stay minutes>`) counting the
 * requests of that kind, seated or refused. Counted with an atomic ADD outside the booking's
 * transaction: a statistic for the forecast, it never makes a create contend; a count lost to a
 * crash between the two only makes the forecast a request lighter. Kept 120 days (`ttl`).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { readItems, type Item, type ReadRequest } from './batch';
import { db, tableName } from './client';
import { companyKey } from './entity';
import { toAppError } from './errors';
import { keys } from './keys';

/** A date's demand: requests per kind (the selling policy's `demandKey`). */
export type DemandDay = Readonly<Record<string, number>>;

const PREFIX = 'ask:';
const KEPT_DAYS = 120;

const demandKey = (companyId: number, locationId: number, date: string) =>
  companyKey(companyId, `DEMAND#${keys.pad(locationId)}#${date}`);

const dayOf = (item: Item | undefined): DemandDay =>
  Object.fromEntries(
    Object.entries(item ?? {}).flatMap(([k, v]) => (k.startsWith(PREFIX) ? [[k.slice(PREFIX.length), Number(v)]] : [])),
  );

export const demand = {
  /** The demand of each date (an empty record for a date nobody asked for), to send with other reads in one round trip. */
  read(companyId: number, locationId: number, dates: readonly string[]): ReadRequest<DemandDay[]> {
    const request = readItems(dates.map((d) => demandKey(companyId, locationId, d)));
    return { keys: request.keys, answer: (found) => request.answer(found).map(dayOf) };
  },

  /** Counts one request of the kind `kind` (selling.ts `demandKey`) on the date. */
  async count(companyId: number, locationId: number, date: string, kind: string): Promise<void> {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: demandKey(companyId, locationId, date),
          UpdateExpression: 'ADD #k :one SET #ttl = :ttl, entity = :e, companyId = :c',
          ExpressionAttributeNames: { '#k': `${PREFIX}${kind}`, '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':one': 1,
            ':ttl': Math.floor(Date.parse(date) / 1000) + KEPT_DAYS * 86_400,
            ':e': 'DEMAND',
            ':c': companyId,
          },
        }),
      );
    } catch (err) {
      throw toAppError(err);
    }
  },
};
