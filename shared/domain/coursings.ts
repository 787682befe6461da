/** Coursings: the courses a kitchen fires in order (starter, main, dessert), per location. */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal';
import { coursings, type Coursing } from '../data/coursings';
import { notFound } from '../errors';
import { newEvent } from '../events/catalog';
import type { Page } from '../page';
import type { CreateCoursingBody, ListCoursingsQuery, UpdateCoursingBody } from '../schemas/coursings';
import { assertLocationAllowed, listedAt, listLocation } from './access';
import { changedFields } from './changes';

export async function listCoursings(
  principal: Principal,
  query: ListCoursingsQuery,
  headerLocation?: string,
): Promise<Page<Coursing>> {
  const locationId = listLocation(principal, query.locationId, headerLocation);
  return listedAt(principal.companyId, locationId, await coursings.list(principal.companyId, locationId, query));
}

export async function createCoursing(principal: Principal, input: CreateCoursingBody): Promise<Coursing> {
  assertLocationAllowed(principal, input.locationId);
  const now = new Date().toISOString();
  const coursing: Coursing = {
    id: randomUUID(),
    locationId: input.locationId,
    title: input.title,
    order: input.order,
    color: input.color ?? null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await coursings.create(
    principal.companyId,
    coursing,
    newEvent(principal.companyId, 'coursing.created', coursing.id, { ...coursing }),
  );
  return coursing;
}

/** Changes title, order or color; an update that changes nothing writes nothing. */
export async function updateCoursing(principal: Principal, id: string, input: UpdateCoursingBody): Promise<Coursing> {
  const current = await coursings.get(principal.companyId, id);
  if (!current) throw notFound('Coursing');
  assertLocationAllowed(principal, current.locationId);
  const next: Coursing = { ...current, ...input, version: current.version + 1, updatedAt: new Date().toISOString() };
  const changes = changedFields(current, next, ['title', 'order', 'color']);
  if (Object.keys(changes).length === 0) return current;
  const event = newEvent(principal.companyId, 'coursing.updated', id, { ...next }, changes);
  await coursings.update(principal.companyId, next, current.version, event);
  return next;
}
