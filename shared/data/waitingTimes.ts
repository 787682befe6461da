/**
 * A location's extended waiting time (docs/capacity.md): one item, `C#<cid>` / `WAITTIME#<loc:12>`, with a
 * `version`. It stays stored after it ends (readers treat it as none) until its `ttl`, a day later.
 */
import type { Static } from '@sinclair/typebox';
import type { DomainEvent } from '../events/catalog';
import { ExtendedWaitingTimeView } from '../schemas/capacity';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { locationExistsStep } from './locations';
import { outboxStep } from './outbox';
import { changedMeanwhile, transact } from './transact';

/**
 * A location's extended waiting time as stored and shown (`endsAt`: when it ends, UTC, it runs while
 * now < endsAt; `delayInMinutes`: the extra wait announced, null when none was named): declared by
 * ExtendedWaitingTimeView.
 */
export type ExtendedWaitingTime = Static<typeof ExtendedWaitingTimeView>;

const KEPT_AFTER_END_SECONDS = 24 * 3600;

const waitingTimeEntity = defineEntity({
  name: 'WAITING_TIME',
  label: 'extended waiting time',
  key: (companyId: number, locationId: number) => companyKey(companyId, `WAITTIME#${keys.pad(locationId)}`),
  schema: ExtendedWaitingTimeView,
  keyOf: (companyId, w) => [companyId, w.locationId] as const,
  indexes: (_, w) => ({ ttl: Math.floor(Date.parse(w.endsAt) / 1000) + KEPT_AFTER_END_SECONDS }),
});

export const waitingTimes = {
  get: waitingTimeEntity.get,
  /** A read of the stored waiting time (running or ended), to send with others in one round trip. */
  read: waitingTimeEntity.read,

  /**
   * Writes the waiting time at an existing location (404 otherwise), replacing the stored one if it
   * is still at `expectedVersion` (undefined: none is stored), with its event.
   */
  async put(
    companyId: number,
    next: ExtendedWaitingTime,
    expectedVersion: number | undefined,
    event: DomainEvent,
  ): Promise<void> {
    await transact([
      locationExistsStep(companyId, next.locationId),
      expectedVersion === undefined
        ? waitingTimeEntity.newItemStep(companyId, next, changedMeanwhile('extended waiting time'))
        : waitingTimeEntity.versionedPutStep(companyId, next, expectedVersion),
      outboxStep(event),
    ]);
  },

  /** Deletes the waiting time as read, with its event. */
  async remove(companyId: number, w: ExtendedWaitingTime, event: DomainEvent): Promise<void> {
    await transact([waitingTimeEntity.versionedDeleteStep(companyId, w), outboxStep(event)]);
  },
};
