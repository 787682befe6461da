/**
 * The response schemas and body examples of the bookings, booking-members, waitlist, tabs,
 * capacity, schedules and menu routes: every route says what its 200 answers, every body has an
 * example its own validator accepts, every object of an answer names all its fields, and each
 * schema's type agrees with the type the domain answers where the domain declares that type itself
 * (checked by the compiler: a schema that drifts from its domain type breaks `tsc`).
 */
import { join } from 'node:path';
import type { Static, TSchema } from '@sinclair/typebox';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { operationsDir } from '../../bin/tools/gen-operations';
import type { PublicMember, RepliedMember } from '../../shared/domain/bookingMembers';
import type { CreatedBooking } from '../../shared/domain/bookings/create';
import type { Availability } from '../../shared/domain/bookings/floor';
import type { OptimizeAnswer } from '../../shared/domain/bookings/optimize';
import type { PreOrder } from '../../shared/domain/bookings/orders';
import type { BookingsByTable } from '../../shared/domain/bookings/read';
import type { CancelledBooking, PublicBooking } from '../../shared/domain/bookings/transitions';
import type { AvailabilityAnswer, ScheduleView } from '../../shared/domain/schedules/operations';
import type { CloseAllResult } from '../../shared/domain/tabs/tabs';
import type { RecordedPurchase, RefundReason } from '../../shared/domain/tabs/purchases';
import type { VariantGroupView, VariantView } from '../../shared/domain/variantGroups';
import type { PublicWaitlistEntry } from '../../shared/domain/waitlist/operations';
import type { Operation } from '../../shared/http/operation';
import { bookingMembersRoutes } from '../../shared/routes/bookingMembers';
import { bookingsRoutes } from '../../shared/routes/bookings';
import { capacityRoutes } from '../../shared/routes/capacity';
import { menuRoutes } from '../../shared/routes/menu';
import type { Route } from '../../shared/routes/route';
import { schedulesRoutes } from '../../shared/routes/schedules';
import { tabsRoutes } from '../../shared/routes/tabs';
import { waitlistRoutes } from '../../shared/routes/waitlist';
import type * as bookings from '../../shared/schemas/bookings';
import type * as members from '../../shared/schemas/bookingMembers';
import type * as purchases from '../../shared/schemas/purchases';
import type * as schedules from '../../shared/schemas/schedules';
import type * as variantGroups from '../../shared/schemas/variantGroups';
import type * as waitlist from '../../shared/schemas/waitlist';

/** The routes whose answers this file's schemas describe. */
const areaRoutes: readonly Route[] = [
  ...bookingsRoutes,
  ...bookingMembersRoutes,
  ...waitlistRoutes,
  ...tabsRoutes,
  ...capacityRoutes,
  ...schedulesRoutes,
  ...menuRoutes,
];

/** The object schemas inside a schema, with where they are. */
function objectsOf(schema: unknown, at = ''): { at: string; schema: Record<string, unknown> }[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as Record<string, unknown>;
  const own = s.type === 'object' ? [{ at: at || '/', schema: s }] : [];
  const children = Object.entries(s).flatMap(([key, value]) => {
    if (key === 'examples' || key === 'default') return [];
    if (Array.isArray(value)) return value.flatMap((v, i) => objectsOf(v, `${at}/${key}/${i}`));
    return objectsOf(value, `${at}/${key}`);
  });
  return [...own, ...children];
}

const examplesOf = (schema: TSchema): unknown[] =>
  ((schema as { examples?: unknown }).examples as unknown[] | undefined) ?? [];

describe('response schemas of bookings, booking members, waitlist, tabs, capacity, schedules and menu', () => {
  it('every route says what its 200 answers', () => {
    expect(areaRoutes.filter((r) => !r.schemas.response).map((r) => r.operationId)).toEqual([]);
  });

  it('every object of an answer names all its fields (additionalProperties: false)', () => {
    const open = areaRoutes.flatMap((r) =>
      objectsOf(r.schemas.response)
        .filter((o) => o.schema.additionalProperties !== false)
        .map((o) => `${r.operationId} ${o.at}`),
    );
    expect(open).toEqual([]);
  });

  it('give one title to one schema (the OpenAPI description lists each titled schema once)', () => {
    const byTitle = new Map<string, Set<string>>();
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (typeof node !== 'object' || node === null) return;
      const { title } = node as { title?: unknown };
      if (typeof title === 'string') byTitle.set(title, (byTitle.get(title) ?? new Set()).add(JSON.stringify(node)));
      for (const [key, value] of Object.entries(node)) if (key !== 'examples' && key !== 'default') visit(value);
    };
    for (const r of areaRoutes) visit(r.schemas.response);
    expect([...byTitle].filter(([, shapes]) => shapes.size > 1).map(([title]) => title)).toEqual([]);
    expect([...byTitle.keys()]).toEqual(
      expect.arrayContaining([
        'Booking',
        'Order',
        'BookingMember',
        'WaitlistEntry',
        'Tab',
        'Purchase',
        'CapacitySetting',
        'Schedule',
        'Coursing',
        'Item',
        'VariantGroup',
        'CustomTag',
      ]),
    );
  });

  it('the check rejects an answer with a field the schema does not name, without one it requires, or with a malformed instant', () => {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const coursing = {
      id: '1e9a7c3b-5d2f-4a8e-b6c4-0f1d2e3a4b5c',
      locationId: 101,
      title: 'Starters',
      order: 1,
      color: null,
      version: 1,
      createdAt: '2026-11-23T05:00:00.000Z',
      updatedAt: '2026-11-23T05:00:00.000Z',
    };
    const validate = ajv.compile(menuRoutes.find((r) => r.operationId === 'createCoursing')!.schemas.response!);
    expect(validate(coursing)).toBe(true);
    expect(validate({ ...coursing, secret: 'x' })).toBe(false);
    const { version: _version, ...withoutVersion } = coursing;
    expect(validate(withoutVersion)).toBe(false);
    expect(validate({ ...coursing, createdAt: '23/11/2026' })).toBe(false);
  });
});

describe('body examples of the same routes', () => {
  const withBody = areaRoutes.filter((r) => r.schemas.body);

  it('every body has an example', () => {
    expect(withBody.filter((r) => examplesOf(r.schemas.body!).length === 0).map((r) => r.operationId)).toEqual([]);
  });

  it("every example passes the operation's own body validator (the generated one the handler uses)", async () => {
    const refused: string[] = [];
    for (const r of withBody) {
      const { operation } = (await import(join(operationsDir, `${r.operationId}.ts`))) as { operation: Operation };
      examplesOf(r.schemas.body!).forEach((example, i) => {
        const validate = operation.validators.body!;
        // The validator fills defaults into what it checks: give it a copy, keep the example as written.
        if (!validate(structuredClone(example)))
          refused.push(`${r.operationId} example ${i}: ${JSON.stringify(validate.errors)}`);
      });
    }
    expect(refused).toEqual([]);
  });
});

/**
 * The schemas' types agree with what the domain answers: each pair must be assignable both ways,
 * or this file does not compile (`npm run typecheck`). Only pairs of two declarations are here:
 * a stored entity's type is `Static` of its schema (docs/entities.md), so a schema and its entity
 * need no check. What remains compares a view with a type the domain declares or derives itself:
 * answers the domain composes (a created or cancelled booking, availability, a pre-order, public
 * views), and answers made by removing stored-only fields (`Omit<Schedule, 'deletedAt'>`, a
 * variant without `deletedAt`), where the check catches a stored-only field the domain would leak.
 */
type Agree<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <A, B>(): Agree<A, B> => true as Agree<A, B>;

const agreements = {
  createdBooking: agree<Static<typeof bookings.CreatedBookingView>, CreatedBooking>(),
  cancelledBooking: agree<Static<typeof bookings.CancelledBookingView>, CancelledBooking>(),
  publicBooking: agree<Static<typeof bookings.PublicBookingView>, PublicBooking>(),
  availability: agree<Static<typeof bookings.AvailabilityView>, Availability>(),
  optimize: agree<Static<typeof bookings.OptimizeView>, OptimizeAnswer>(),
  byTable: agree<Static<typeof bookings.BookingsByTableView>, BookingsByTable>(),
  preOrder: agree<Static<typeof bookings.PreOrderView>, PreOrder>(),
  publicMember: agree<Static<typeof members.PublicMemberView>, PublicMember>(),
  repliedMember: agree<Static<typeof members.RepliedMemberView>, RepliedMember>(),
  publicWaitlistEntry: agree<Static<typeof waitlist.PublicWaitlistEntryView>, PublicWaitlistEntry>(),
  recordedPurchase: agree<Static<typeof purchases.RecordedPurchaseView>, RecordedPurchase>(),
  refundReasons: agree<Static<typeof purchases.RefundReasonsView>, { locationId: number; reasons: RefundReason[] }>(),
  closeAll: agree<Static<typeof purchases.CloseAllTabsView>, CloseAllResult>(),
  schedule: agree<Static<typeof schedules.ScheduleView>, ScheduleView>(),
  scheduleAvailability: agree<Static<typeof schedules.ScheduleAvailabilityView>, AvailabilityAnswer>(),
  variant: agree<Static<typeof variantGroups.VariantView>, VariantView>(),
  variantGroup: agree<Static<typeof variantGroups.VariantGroupView>, VariantGroupView>(),
} satisfies Record<string, true>;

describe('the schemas and the domain types', () => {
  it('agree (checked when the file compiles)', () => {
    expect(Object.values(agreements).every(Boolean)).toBe(true);
  });
});
