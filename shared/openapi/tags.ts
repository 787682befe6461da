/**
 * What each area of the route table (a row's `area`, its operations' tag) holds, in the words of
 * the document's tag list. A new area needs a line here: the document's lint (test/unit/openapi-lint.test.ts)
 * fails on a tag without a description.
 */
export const tagDescriptions: Readonly<Record<string, string>> = {
  health:
    'The probes: liveness, readiness (the database, and on the local stage its seed) and the health of the dependencies.',
  menu: 'Coursings, menu items, variant groups and variants, custom tags, and the schedules that say when an entity is served.',
  companies: "The platform's companies and their first API keys (internal operators only).",
  access: 'Permissions, roles and API keys: who may call what, at which tier, for which locations.',
  guests: 'Guest users: create one, search them.',
  setup: 'Locations, their tables and booking groups (the floor plan).',
  webhooks: 'Webhook subscriptions, their deliveries and the event log; the events themselves are under `webhooks`.',
  bookings:
    'Bookings from request to visit: availability, booking settings, the booking life cycle, seating, members, pre-orders and the orders of a tab.',
  capacity: 'Capacity settings per slot and the extended waiting time.',
  waitlist: 'The booking waitlist: join, offer a table, accept, decline or leave.',
  online:
    "Online booking for guests, through a publishable key: a location's profile and times, a booking, the waitlist, and a booking by its code (docs/online-booking.md).",
  tabs: 'Paying a tab: purchases, pick-ups, refund reasons, anonymous members, closing tabs, and reviews.',
  alerts:
    'What operators must look at, raised by the service when something it did on its own failed: list, acknowledge, resolve.',
  printing: 'Printer groups, terminals and print jobs.',
  reporting: 'Purchase summaries, report e-mails, and accounting exports (SIE, GBAT10) with their settings.',
  docs: 'This document and the API reference page rendered from it.',
};
