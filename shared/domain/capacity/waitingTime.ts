/**
 * The extended waiting time (docs/capacity.md): a location announces that orders take longer until
 * `endsAt` (by `delayInMinutes`, when it names one). One per location; once it has ended it reads
 * as none. Orders placed while it runs carry it (`extendedWaitingTime` on the order, slots.ts).
 * Every operation takes the time it runs at (`nowMs`), so tests can set the clock.
 */
import type { Principal } from '../../auth/principal';
import { readTogether } from '../../data/batch';
import { locationEntity } from '../../data/locations';
import { waitingTimes, type ExtendedWaitingTime } from '../../data/waitingTimes';
import { notFound, unprocessable, validationFailed } from '../../errors';
import { newEvent } from '../../events/catalog';
import type { DeleteWaitingTimeQuery, GetWaitingTimeQuery, PutWaitingTimeBody } from '../../schemas/capacity';
import { assertLocationAllowed, listLocation } from '../access';
import { changedFields } from '../changes';

/** How far ahead an extended waiting time may end. */
const MAX_WAITING_DAYS = 7;

/** The stored waiting time if it is still running at `nowMs` (it runs while now < endsAt); null once it has ended. */
export const runningAt = (stored: ExtendedWaitingTime | undefined, nowMs: number): ExtendedWaitingTime | null =>
  stored && Date.parse(stored.endsAt) > nowMs ? stored : null;

/** The location's stored waiting time, read with the location itself (404 for a location the company does not have). */
async function atLocation(principal: Principal, locationId: number): Promise<ExtendedWaitingTime | undefined> {
  assertLocationAllowed(principal, locationId);
  const read = await readTogether({
    location: locationEntity.read(principal.companyId, locationId),
    waitingTime: waitingTimes.read(principal.companyId, locationId),
  });
  if (!read.location) throw notFound(`Location ${locationId}`);
  return read.waitingTime;
}

/** GET: the running waiting time of the location (query `locationId`, else `X-Location-Id`), or null. */
export async function getExtendedWaitingTime(
  principal: Principal,
  query: GetWaitingTimeQuery,
  headerLocation?: string,
  nowMs = Date.now(),
): Promise<ExtendedWaitingTime | null> {
  const locationId = listLocation(principal, query.locationId, headerLocation);
  if (locationId === undefined)
    throw validationFailed('Name the location: locationId, or the X-Location-Id header', [
      { path: '/locationId', message: 'is required without an X-Location-Id header' },
    ]);
  return runningAt(await atLocation(principal, locationId), nowMs);
}

/** When a new end must fall: after now, at most MAX_WAITING_DAYS ahead (422 otherwise). */
function endOf(input: PutWaitingTimeBody, nowMs: number): string {
  const endsMs = Date.parse(input.endsAt);
  if (Number.isNaN(endsMs))
    throw validationFailed('endsAt is not valid', [
      { path: '/endsAt', message: 'is not an instant this service can represent' },
    ]);
  if (endsMs <= nowMs)
    throw unprocessable('endsAt has passed: an extended waiting time must end in the future', [
      { path: '/endsAt', message: 'must be in the future' },
    ]);
  if (endsMs > nowMs + MAX_WAITING_DAYS * 86_400_000)
    throw unprocessable(`An extended waiting time ends at most ${MAX_WAITING_DAYS} days ahead`, [
      { path: '/endsAt', message: `must be within ${MAX_WAITING_DAYS} days` },
    ]);
  return new Date(endsMs).toISOString();
}

/**
 * POST: starts an extended waiting time, or changes the running one (its `delayInMinutes` stays
 * when the request leaves it out; null clears it). One that has ended is replaced by a new one.
 * No change, no write.
 */
export async function putExtendedWaitingTime(
  principal: Principal,
  input: PutWaitingTimeBody,
  nowMs = Date.now(),
): Promise<ExtendedWaitingTime> {
  const { companyId } = principal;
  assertLocationAllowed(principal, input.locationId);
  const endsAt = endOf(input, nowMs);
  const stored = await waitingTimes.get(companyId, input.locationId);
  const running = runningAt(stored, nowMs);
  const now = new Date(nowMs).toISOString();
  if (running) {
    const next: ExtendedWaitingTime = {
      ...running,
      endsAt,
      delayInMinutes: input.delayInMinutes === undefined ? running.delayInMinutes : input.delayInMinutes,
      version: running.version + 1,
      updatedAt: now,
    };
    const changes = changedFields(running, next, ['endsAt', 'delayInMinutes']);
    if (Object.keys(changes).length === 0) return running;
    await waitingTimes.put(
      companyId,
      next,
      running.version,
      newEvent(companyId, 'extended-waiting-time.updated', String(input.locationId), { ...next }, changes),
    );
    return next;
  }
  const started: ExtendedWaitingTime = {
    locationId: input.locationId,
    endsAt,
    delayInMinutes: input.delayInMinutes ?? null,
    version: (stored?.version ?? 0) + 1,
    createdAt: now,
    updatedAt: now,
  };
  await waitingTimes.put(
    companyId,
    started,
    stored?.version,
    newEvent(companyId, 'extended-waiting-time.created', String(input.locationId), { ...started }),
  );
  return started;
}

/** DELETE: ends the running waiting time now and answers it as it was; null (nothing written) when none runs. */
export async function deleteExtendedWaitingTime(
  principal: Principal,
  query: DeleteWaitingTimeQuery,
  nowMs = Date.now(),
): Promise<ExtendedWaitingTime | null> {
  const running = runningAt(await atLocation(principal, query.locationId), nowMs);
  if (!running) return null;
  await waitingTimes.remove(
    principal.companyId,
    running,
    newEvent(principal.companyId, 'extended-waiting-time.deleted', String(query.locationId), { ...running }),
  );
  return running;
}
