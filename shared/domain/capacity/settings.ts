/**
 * Capacity settings (docs/capacity.md): how many orders and items a time slot of a location takes, on
 * which days, in which daily window and between which dates. Which one governs a slot is
 * `effectiveSetting` (rules.ts); tab orders and pre-orders are held to it (slots.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/principal';
import { capacitySettings, type CapacitySetting } from '../../data/capacitySettings';
import { notFound, validationFailed, type FieldProblem } from '../../errors';
import { newEvent } from '../../events/catalog';
import type { Page } from '../../page';
import type {
  CreateCapacitySettingBody,
  ListCapacitySettingsQuery,
  UpdateCapacitySettingBody,
} from '../../schemas/capacity';
import { assertLocationAllowed } from '../access';
import { changedFields } from '../changes';
import { listAtLocation } from '../tables';
import { settingProblems } from './rules';

type Editable = Omit<CapacitySetting, 'id' | 'locationId' | 'version' | 'createdAt' | 'updatedAt'>;
const editable: (keyof Editable)[] = [
  'name',
  'validOnDays',
  'orderCapacity',
  'itemCapacity',
  'priority',
  'enabled',
  'timeStart',
  'timeEnd',
  'validFrom',
  'validTo',
];

/** An instant as stored (UTC, Z), or a problem at `path` for one JavaScript cannot represent (a leap second). */
function utc(value: string | null, path: string, problems: FieldProblem[]): string | null {
  if (value === null) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    problems.push({ path, message: 'is not an instant this service can represent' });
    return value;
  }
  return new Date(ms).toISOString();
}

/** The fields as stored (days sorted, instants in UTC), or 400 naming every problem on the field the request sent. */
function normalized(s: Editable, sent: object): Editable {
  const problems: FieldProblem[] = [];
  const out: Editable = {
    ...s,
    validOnDays: [...s.validOnDays].sort((a, b) => a - b),
    validFrom: utc(s.validFrom, '/validFrom', problems),
    validTo: utc(s.validTo, '/validTo', problems),
  };
  if (problems.length === 0) problems.push(...settingProblems(out, sent));
  if (problems.length) throw validationFailed('The capacity setting is not valid', problems);
  return out;
}

async function current(principal: Principal, locationId: number, id: string): Promise<CapacitySetting> {
  assertLocationAllowed(principal, locationId);
  const found = await capacitySettings.get(principal.companyId, locationId, id);
  if (!found) throw notFound(`Capacity setting ${id}`);
  return found;
}

/** The location's settings in the order they take precedence (priority, then the oldest first). */
export function listCapacitySettings(
  principal: Principal,
  locationId: number,
  query: ListCapacitySettingsQuery,
): Promise<Page<CapacitySetting>> {
  return listAtLocation(principal, locationId, () => capacitySettings.list(principal.companyId, locationId, query));
}

export const getCapacitySetting = (principal: Principal, locationId: number, id: string): Promise<CapacitySetting> =>
  current(principal, locationId, id);

/** Adds a setting; what is not sent: no limits, priority 0, enabled, the whole day, no dates. */
export async function createCapacitySetting(
  principal: Principal,
  locationId: number,
  input: CreateCapacitySettingBody,
): Promise<CapacitySetting> {
  assertLocationAllowed(principal, locationId);
  const fields = normalized(
    {
      name: input.name,
      validOnDays: input.validOnDays,
      orderCapacity: input.orderCapacity ?? null,
      itemCapacity: input.itemCapacity ?? null,
      priority: input.priority ?? 0,
      enabled: input.enabled ?? true,
      timeStart: input.timeStart ?? null,
      timeEnd: input.timeEnd ?? null,
      validFrom: input.validFrom ?? null,
      validTo: input.validTo ?? null,
    },
    input,
  );
  const now = new Date().toISOString();
  const setting: CapacitySetting = {
    id: randomUUID(),
    locationId,
    ...fields,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const { companyId } = principal;
  await capacitySettings.create(
    companyId,
    setting,
    newEvent(companyId, 'capacity-setting.created', setting.id, { ...setting }),
  );
  return setting;
}

/** Changes the fields sent (every field optional, at least one); the result must still be valid. No change, no write. */
export async function updateCapacitySetting(
  principal: Principal,
  locationId: number,
  id: string,
  input: UpdateCapacitySettingBody,
): Promise<CapacitySetting> {
  const prev = await current(principal, locationId, id);
  const fields = normalized({ ...prev, ...input }, input);
  const next: CapacitySetting = { ...prev, ...fields, version: prev.version + 1, updatedAt: new Date().toISOString() };
  const changes = changedFields(prev, next, editable);
  if (Object.keys(changes).length === 0) return prev;
  const { companyId } = principal;
  await capacitySettings.update(
    companyId,
    next,
    prev.version,
    newEvent(companyId, 'capacity-setting.updated', id, { ...next }, changes),
  );
  return next;
}

/** Deletes the setting; answers it as it was. */
export async function deleteCapacitySetting(
  principal: Principal,
  locationId: number,
  id: string,
): Promise<CapacitySetting> {
  const setting = await current(principal, locationId, id);
  await capacitySettings.remove(
    principal.companyId,
    setting,
    newEvent(principal.companyId, 'capacity-setting.deleted', id, { ...setting }),
  );
  return setting;
}
