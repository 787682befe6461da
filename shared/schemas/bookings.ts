/** Bookings (spec 2.12), their settings (2.8), tabs' orders and kitchen dispatches (decisions.md §7). */
import { Type, type Static } from '@sinclair/typebox';
import { bookingSettingsFields } from './bookingSettings';
import { bookingStatuses, kitchenFlow } from './bookingStates';
import { Nullable, NumericId, Uuid, pageQuery } from './common';
import { CONFIRMATION_PATTERN } from './confirmationCode';
import { CostCenter, Money, VatRate } from './items';
import { LocationPath, OperatingHours } from './locations';

export { LocationPath };

/** A booking holds at most this many tables (bounds the transaction that holds them, with their tabs and days). */
const MAX_BOOKING_TABLES = 8;

/** PUT booking settings: the fields to set (at least one), each with the bounds of spec 2.8. */
export const PutBookingSettingsBody = Type.Partial(Type.Object({ ...bookingSettingsFields, operatingHours: Nullable(OperatingHours) }), {
  additionalProperties: false,
  minProperties: 1,
});

const date = Type.String({ format: 'date', description: 'YYYY-MM-DD, the location\'s local date' });
const wallTime = Type.String({ pattern: '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, the location\'s local wall time' });
const text = (maxLength: number, description?: string) => Nullable(Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) }));
const guestCount = Type.Integer({ minimum: 0, maximum: 100, description: 'guests; 0 only for a walk-in seated at once (seatImmediately), whose party is not counted' });
const tableId = Uuid;
const tableIds = Type.Array(Uuid, { uniqueItems: true, maxItems: MAX_BOOKING_TABLES, description: 'tables of the location; the first is the primary; replaces tableId' });
const defaultTabStrategy = Type.Union([Type.Literal('single'), Type.Literal('per_resource')], { description: 'one tab for the booking, or one per table' });
const money = Money;

/** What both create and update accept, with the same bounds. */
const editable = {
  bookingDate: date,
  startTime: wallTime,
  endTime: wallTime,
  guestCount,
  tableId,
  tableIds,
  defaultTabStrategy,
  occasion: text(100),
  specialRequests: text(1000),
  internalNotes: text(2000, 'staff only'),
  paymentType: text(50),
  depositAmountCents: Nullable(money),
};

export const CreateBookingBody = Type.Object(
  {
    locationId: NumericId,
    bookingDate: editable.bookingDate,
    startTime: editable.startTime,
    endTime: Type.Optional(editable.endTime),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA zone; must be the location\'s' })),
    guestCount: editable.guestCount,
    tableId: Type.Optional(editable.tableId),
    tableIds: Type.Optional(editable.tableIds),
    defaultTabStrategy: Type.Optional(editable.defaultTabStrategy),
    primaryUserId: Type.Optional(Nullable(NumericId)),
    occasion: Type.Optional(editable.occasion),
    specialRequests: Type.Optional(editable.specialRequests),
    internalNotes: Type.Optional(editable.internalNotes),
    paymentType: Type.Optional(editable.paymentType),
    depositAmountCents: Type.Optional(editable.depositAmountCents),
    bookingSource: Type.Optional(text(50)),
    guestName: Type.Optional(text(200)),
    guestEmail: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
    guestPhone: Type.Optional(text(40, "with the country code, or local in the location's country; stored as E.164")),
    seatImmediately: Type.Optional(Type.Boolean({ description: 'seat at once (a party at the door); needs a table' })),
  },
  { additionalProperties: false },
);

export const UpdateBookingBody = Type.Object(
  {
    bookingDate: Type.Optional(editable.bookingDate),
    startTime: Type.Optional(editable.startTime),
    endTime: Type.Optional(editable.endTime),
    guestCount: Type.Optional(editable.guestCount),
    tableId: Type.Optional(editable.tableId),
    tableIds: Type.Optional(editable.tableIds),
    defaultTabStrategy: Type.Optional(editable.defaultTabStrategy),
    occasion: Type.Optional(editable.occasion),
    specialRequests: Type.Optional(editable.specialRequests),
    internalNotes: Type.Optional(editable.internalNotes),
    paymentType: Type.Optional(editable.paymentType),
    depositAmountCents: Type.Optional(editable.depositAmountCents),
    confirmRemoveActiveTab: Type.Optional(Type.Boolean({ description: 'allow removing a table whose tab is open' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const BookingPath = Type.Object({ id: Uuid });

export const ListBookingsQuery = Type.Object({
  locationId: Type.Optional(NumericId),
  tableId: Type.Optional(Uuid),
  status: Type.Optional(Type.Union(bookingStatuses.map((s) => Type.Literal(s)))),
  bookingDate: Type.Optional(date),
  startDate: Type.Optional(date),
  endDate: Type.Optional(date),
  userId: Type.Optional(NumericId),
  confirmationCode: Type.Optional(Type.String({ pattern: CONFIRMATION_PATTERN.source })),
  bookingSource: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
  ...pageQuery(100, 20),
});

export const BookingsByTableQuery = Type.Object({ date });

export const AvailabilityQuery = Type.Object({
  date,
  partySize: Type.Integer({ minimum: 1, maximum: 100, description: 'guests' }),
  /** The booking group whose pool, schedule and settings to use. */
  bookingGroupId: Type.Optional(Uuid),
  /** The guest, whose limit of active bookings applies. */
  primaryUserId: Type.Optional(NumericId),
});

export const OptimizeQuery = Type.Object({ date });

export const OptimizeBody = Type.Object(
  { dryRun: Type.Optional(Type.Boolean({ default: true, description: 'answer the moves without making them' })) },
  { additionalProperties: false },
);

export const CancelBookingBody = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })), closeTab: Type.Optional(Type.Boolean({ default: true, description: 'close the booking\'s tabs' })) },
  { additionalProperties: false },
);

export const CodePath = Type.Object({ code: Type.String({ pattern: CONFIRMATION_PATTERN.source }) });

export const LockBookingBody = Type.Object({ locked: Type.Boolean() }, { additionalProperties: false });

export const SeatBookingBody = Type.Object(
  {
    tabId: Type.Optional(Type.String({ format: 'uuid', description: "one of the booking's tabs, or a tab of its location without a booking (walk-in, bar) to link" })),
    createTab: Type.Optional(Type.Boolean({ description: 'open a new tab for the primary guest and table instead of the pre-arrival one' })),
  },
  { additionalProperties: false },
);

export const UnseatBookingBody = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'printed on the kitchen correction ticket when given' })) },
  { additionalProperties: false },
);

const orderLine = Type.Object(
  {
    itemId: Type.Optional(NumericId),
    // name and price are required without itemId (the domain says which line lacks them); with it, the item's unless given.
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    price: Type.Optional(money),
    vatRate: Type.Optional(VatRate),
    costCenter: Type.Optional(Nullable(CostCenter)),
    quantity: Type.Integer({ minimum: 1, maximum: 100 }),
    coursingId: Type.Optional(Uuid),
    modifications: Type.Optional(Type.Array(Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), price: money }, { additionalProperties: false }), { maxItems: 20 })),
  },
  { additionalProperties: false },
);

/** An order placed on a tab, or a booking's pre-order (which replaces the one before it). */
export const OrderBody = Type.Object({ items: Type.Array(orderLine, { minItems: 1, maxItems: 100 }) }, { additionalProperties: false });

export const TabPath = Type.Object({ tabId: Uuid });

export const ListOrdersQuery = Type.Object(pageQuery(100, 20));

export const DispatchPath = Type.Object({ orderId: Uuid, dispatchId: Uuid });

export const UpdateDispatchBody = Type.Object(
  { status: Type.Union(kitchenFlow.slice(1).map((s) => Type.Literal(s)), { description: 'forward only; reversed comes only from unseating' }) },
  { additionalProperties: false },
);

export type PutBookingSettingsBody = Static<typeof PutBookingSettingsBody>;
export type CreateBookingBody = Static<typeof CreateBookingBody>;
export type UpdateBookingBody = Static<typeof UpdateBookingBody>;
export type BookingPath = Static<typeof BookingPath>;
export type ListBookingsQuery = Static<typeof ListBookingsQuery>;
export type BookingsByTableQuery = Static<typeof BookingsByTableQuery>;
export type AvailabilityQuery = Static<typeof AvailabilityQuery>;
export type OptimizeQuery = Static<typeof OptimizeQuery>;
export type OptimizeBody = Static<typeof OptimizeBody>;
export type CancelBookingBody = Static<typeof CancelBookingBody>;
export type CodePath = Static<typeof CodePath>;
export type LockBookingBody = Static<typeof LockBookingBody>;
export type SeatBookingBody = Static<typeof SeatBookingBody>;
export type UnseatBookingBody = Static<typeof UnseatBookingBody>;
export type OrderBody = Static<typeof OrderBody>;
export type TabPath = Static<typeof TabPath>;
export type ListOrdersQuery = Static<typeof ListOrdersQuery>;
export type DispatchPath = Static<typeof DispatchPath>;
export type UpdateDispatchBody = Static<typeof UpdateDispatchBody>;
