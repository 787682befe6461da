/**
 * Variant groups and variants (docs/menu.md): a group's `type` says how a guest chooses
 * among its variants, `min` and `max` how many. Every change of a group or of one of its variants
 * is one versioned write of the group, so the bounds are checked against the live variants of the
 * very version written.
 */
import type { Principal } from '../auth/principal';
import { nextId } from '../data/ids';
import { items } from '../data/items';
import { variantGroups, type Variant, type VariantGroup } from '../data/variantGroups';
import { AppError, conflict, notFound, unprocessable, validationFailed, type FieldProblem } from '../errors';
import { newEvent, type DomainEvent } from '../events/catalog';
import { Page } from '../page';
import {
  MAX_VARIANTS,
  type CreateVariantGroupBody,
  type LinkVariantBody,
  type ListVariantGroupsQuery,
  type UpdateVariantBody,
  type UpdateVariantGroupBody,
  type VariantBody,
  type VariantGroupType,
} from '../schemas/variantGroups';
import { assertLocationAllowed, listedAt, listLocation } from './access';
import { changedFields } from './changes';

/** A variant as the API shows it (soft-deleted ones are never shown). */
export type VariantView = Omit<Variant, 'deletedAt'>;
/** A group as the API shows it: its live variants counted, and listed when asked for. */
export type VariantGroupView = Omit<VariantGroup, 'variants' | 'deletedAt'> & {
  variantCount: number;
  variants?: VariantView[];
};

const live = (g: VariantGroup) => g.variants.filter((v) => v.deletedAt === null);
const variantView = ({ deletedAt: _deleted, ...v }: Variant): VariantView => v;

function groupView(g: VariantGroup, withVariants: boolean): VariantGroupView {
  const { variants: _all, deletedAt: _deleted, ...rest } = g;
  const shown = live(g);
  return { ...rest, variantCount: shown.length, ...(withVariants ? { variants: shown.map(variantView) } : {}) };
}

/** Whether `min`/`max` must lie within the number of live variants: they count different variants. */
const countsVariants = (type: VariantGroupType) => type !== 'quantity';

/**
 * What is wrong with a group's bounds. `form`: min above max, a single group's max other than 1
 * (400 whatever the variants). `count`: a bound above the number of live variants, for the types
 * that choose different variants.
 */
function boundsProblems(
  g: Pick<VariantGroup, 'type' | 'min' | 'max'>,
  liveCount: number,
): { form: FieldProblem[]; count: FieldProblem[] } {
  const form: FieldProblem[] = [];
  const count: FieldProblem[] = [];
  if (g.type === 'single' && g.max !== 1) form.push({ path: '/max', message: 'is 1 for a single-choice group' });
  if (g.max !== null && g.min > g.max) form.push({ path: '/min', message: `must be at most max (${g.max})` });
  if (countsVariants(g.type)) {
    if (g.min > liveCount)
      count.push({ path: '/min', message: `must be at most the number of variants (${liveCount})` });
    if (g.max !== null && g.max > liveCount)
      count.push({ path: '/max', message: `must be at most the number of variants (${liveCount})` });
  }
  return { form, count };
}

/** A live group the caller may reach: 404 for a malformed, unknown, another company's or soft-deleted one. */
async function liveGroup(principal: Principal, id: string): Promise<VariantGroup> {
  const group = await variantGroups.get(principal.companyId, Number(id));
  if (!group || group.deletedAt !== null) throw notFound(`Variant group ${id}`);
  assertLocationAllowed(principal, group.locationId);
  return group;
}

/** A live variant of a live group the caller may reach, with its group. */
async function liveVariant(
  principal: Principal,
  variantId: string,
): Promise<{ group: VariantGroup; variant: Variant }> {
  const group = await variantGroups.ofVariant(principal.companyId, Number(variantId));
  const variant = group?.variants.find((v) => v.id === Number(variantId));
  if (!group || !variant || group.deletedAt !== null || variant.deletedAt !== null)
    throw notFound(`Variant ${variantId}`);
  assertLocationAllowed(principal, group.locationId);
  return { group, variant };
}

/** The item a variant links to must be one of the group's location (404 naming `/itemId` otherwise). */
async function assertItemAt(principal: Principal, itemId: number, locationId: number): Promise<void> {
  const item = await items.get(principal.companyId, itemId);
  if (!item || item.locationId !== locationId)
    throw new AppError('NOT_FOUND', `Item ${itemId} not found at location ${locationId}`, [
      { path: '/itemId', message: 'no item with this id at this location' },
    ]);
}

async function newVariant(groupId: number, locationId: number, input: VariantBody, now: string): Promise<Variant> {
  return {
    id: await nextId('variant'),
    groupId,
    locationId,
    name: input.name,
    price: input.price ?? 0,
    itemId: input.itemId ?? null,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
}

export async function listVariantGroups(
  principal: Principal,
  query: ListVariantGroupsQuery,
  headerLocation?: string,
): Promise<Page<VariantGroupView>> {
  const locationId = listLocation(principal, query.locationId, headerLocation);
  const page = await listedAt(
    principal.companyId,
    locationId,
    await variantGroups.list(principal.companyId, { locationId, type: query.type }, query),
  );
  return new Page(
    page.items.map((g) => groupView(g, query.includeVariants === true)),
    page.pagination,
  );
}

export const getVariantGroup = async (principal: Principal, id: string): Promise<VariantGroupView> =>
  groupView(await liveGroup(principal, id), true);

/**
 * Creates the group with its initial variants (legacy ones: link each to an item afterwards).
 * Defaults: min 0, max 1 for a single group and null otherwise, visible, no child coursing.
 * `variant-group.created` carries the whole group, its variants included.
 */
export async function createVariantGroup(
  principal: Principal,
  input: CreateVariantGroupBody,
): Promise<VariantGroupView> {
  assertLocationAllowed(principal, input.locationId);
  const initial = input.variants ?? [];
  const linked = initial.findIndex((v) => v.itemId !== undefined && v.itemId !== null);
  if (linked >= 0)
    throw validationFailed('The variant group is not valid', [
      {
        path: `/variants/${linked}/itemId`,
        message: 'initial variants are not linked; link them once the group exists',
      },
    ]);
  const bounds = {
    type: input.type,
    min: input.min ?? 0,
    max: input.max !== undefined ? input.max : input.type === 'single' ? 1 : null,
  };
  const problems = boundsProblems(bounds, initial.length);
  if (problems.form.length || problems.count.length)
    throw validationFailed('The variant group is not valid', [...problems.form, ...problems.count]);
  const now = new Date().toISOString();
  const id = await nextId('variant-group');
  const variants: Variant[] = [];
  for (const v of initial) variants.push(await newVariant(id, input.locationId, v, now));
  const group: VariantGroup = {
    id,
    locationId: input.locationId,
    name: input.name,
    ...bounds,
    description: input.description ?? null,
    isVisible: input.isVisible ?? true,
    useChildCoursing: input.useChildCoursing ?? false,
    variants,
    version: 1,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  const view = groupView(group, true);
  await variantGroups.create(
    principal.companyId,
    group,
    newEvent(principal.companyId, 'variant-group.created', String(id), { ...view }),
  );
  return view;
}

/**
 * Changes the fields given; an update that changes nothing writes nothing. Bounds above the number
 * of live variants are 422 (add variants first); min above max, or a single group's max other than
 * 1, are 400.
 */
export async function updateVariantGroup(
  principal: Principal,
  id: string,
  input: UpdateVariantGroupBody,
): Promise<VariantGroupView> {
  const prev = await liveGroup(principal, id);
  const next: VariantGroup = { ...prev, ...input, version: prev.version + 1, updatedAt: new Date().toISOString() };
  const problems = boundsProblems(next, live(next).length);
  if (problems.form.length) throw validationFailed('The variant group is not valid', problems.form);
  if (problems.count.length) throw unprocessable('The bounds exceed the number of variants', problems.count);
  const changes = changedFields(prev, next, ['name', 'description', 'min', 'max', 'isVisible', 'useChildCoursing']);
  if (Object.keys(changes).length === 0) return groupView(prev, true);
  const view = groupView(next, true);
  await variantGroups.update(principal.companyId, prev, next, [
    newEvent(principal.companyId, 'variant-group.updated', id, { ...view }, changes),
  ]);
  return view;
}

/** Soft deletes the group: it leaves every list and get, and its variants with it (their item links end). */
export async function deleteVariantGroup(principal: Principal, id: string): Promise<VariantGroupView> {
  const prev = await liveGroup(principal, id);
  const now = new Date().toISOString();
  const next: VariantGroup = { ...prev, version: prev.version + 1, updatedAt: now, deletedAt: now };
  const view = groupView(prev, true);
  await variantGroups.update(principal.companyId, prev, next, [
    newEvent(principal.companyId, 'variant-group.deleted', id, { ...view }),
  ]);
  return view;
}

/** The group with one variant replaced (or added), as the next version. */
function withVariant(group: VariantGroup, variant: Variant, now: string): VariantGroup {
  const known = group.variants.some((v) => v.id === variant.id);
  const variants = known
    ? group.variants.map((v) => (v.id === variant.id ? variant : v))
    : [...group.variants, variant];
  return { ...group, variants, version: group.version + 1, updatedAt: now };
}

const variantEvent = (
  principal: Principal,
  name: Parameters<typeof newEvent>[1],
  v: Variant,
  changes?: Record<string, unknown>,
): DomainEvent => newEvent(principal.companyId, name, String(v.id), { ...variantView(v) }, changes ?? null);

/** Adds a variant to a live group (linked when `itemId` names an item of the group's location). */
export async function createVariant(principal: Principal, groupId: string, input: VariantBody): Promise<VariantView> {
  const group = await liveGroup(principal, groupId);
  if (group.variants.length >= MAX_VARIANTS)
    throw conflict(`A group holds at most ${MAX_VARIANTS} variants, soft-deleted ones included`);
  if (input.itemId !== undefined && input.itemId !== null)
    await assertItemAt(principal, input.itemId, group.locationId);
  const now = new Date().toISOString();
  const variant = await newVariant(group.id, group.locationId, input, now);
  await variantGroups.update(principal.companyId, group, withVariant(group, variant, now), [
    variantEvent(principal, 'variant.created', variant),
  ]);
  return variantView(variant);
}

/** Changes a variant's name or price; an update that changes nothing writes nothing. */
export async function updateVariant(
  principal: Principal,
  variantId: string,
  input: UpdateVariantBody,
): Promise<VariantView> {
  const { group, variant } = await liveVariant(principal, variantId);
  const now = new Date().toISOString();
  const next: Variant = { ...variant, ...input, updatedAt: now };
  const changes = changedFields(variant, next, ['name', 'price']);
  if (Object.keys(changes).length === 0) return variantView(variant);
  await variantGroups.update(principal.companyId, group, withVariant(group, next, now), [
    variantEvent(principal, 'variant.updated', next, changes),
  ]);
  return variantView(next);
}

/** Soft deletes a variant: 409 when the group's bounds would then exceed its live variants (lower them first). */
export async function deleteVariant(principal: Principal, variantId: string): Promise<VariantView> {
  const { group, variant } = await liveVariant(principal, variantId);
  const now = new Date().toISOString();
  const next = withVariant(group, { ...variant, deletedAt: now, updatedAt: now }, now);
  const problems = boundsProblems(next, live(next).length).count;
  if (problems.length)
    throw new AppError(
      'CONFLICT',
      `Variant group ${group.id} would have fewer variants than its bounds; lower min or max first`,
      problems,
    );
  await variantGroups.update(principal.companyId, group, next, [variantEvent(principal, 'variant.deleted', variant)]);
  return variantView(variant);
}

/** Links a variant to an item of its group's location (legacy → item-based); linking it to the item it has writes nothing. */
export async function linkVariant(
  principal: Principal,
  variantId: string,
  input: LinkVariantBody,
): Promise<VariantView> {
  const { group, variant } = await liveVariant(principal, variantId);
  if (variant.itemId === input.itemId) return variantView(variant);
  await assertItemAt(principal, input.itemId, group.locationId);
  const now = new Date().toISOString();
  const next: Variant = { ...variant, itemId: input.itemId, updatedAt: now };
  await variantGroups.update(principal.companyId, group, withVariant(group, next, now), [
    variantEvent(principal, 'variant.linked', next, { itemId: input.itemId }),
  ]);
  return variantView(next);
}

/** Unlinks a variant from its item (item-based → legacy); unlinking a legacy variant writes nothing. */
export async function unlinkVariant(principal: Principal, variantId: string): Promise<VariantView> {
  const { group, variant } = await liveVariant(principal, variantId);
  if (variant.itemId === null) return variantView(variant);
  const now = new Date().toISOString();
  const next: Variant = { ...variant, itemId: null, updatedAt: now };
  await variantGroups.update(principal.companyId, group, withVariant(group, next, now), [
    variantEvent(principal, 'variant.unlinked', next, { itemId: null }),
  ]);
  return variantView(next);
}
