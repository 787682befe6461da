/** Guests against DynamoDB Local: the create transaction and its dedupe, the search index, history. */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectedMatches, guestPopulation } from '../../bench/fixtures/guests';
import type { Principal } from '../../shared/auth/principal';
import { db, tableName } from '../../shared/data/client';
import { guestHistoryStep, guests, type Guest } from '../../shared/data/guests';
import { locations, type Location } from '../../shared/data/locations';
import { transact } from '../../shared/data/transact';
import { outboxStep } from '../../shared/data/outbox';
import { createGuest, searchGuests, type GuestMatch } from '../../shared/domain/guests';
import { weekdays } from '../../shared/schemas/locations';
import { newEvent } from '../../shared/events/catalog';
import { idBlock } from '../support/id-blocks';
import { companyEvents } from '../support/events';

/** Each test file works in its own companies, so files can run in parallel on one table. */
const ids = idBlock(import.meta.url);
const companyId = ids.next();
const otherCompany = ids.next();
const searchCompany = ids.next();

const principal = (company: number, locationIds: number[] | null = null): Principal => ({
  kind: 'apiKey',
  companyId: company,
  permissions: ['bookings.create', 'bookings.read'],
  tier: 'unlimited',
  locationIds,
  rateSubject: `test:${company}`,
  internalOperator: false,
});

/** DynamoDB commands sent since the last reset, by operation (a middleware on the shared client). */
const sent: string[] = [];
db().middlewareStack.add(
  (next, context) => (args) => {
    sent.push(String(context.commandName).replace(/Command$/, ''));
    return next(args);
  },
  { step: 'initialize', name: 'countGuestTestCommands' },
);
afterEach(() => {
  sent.length = 0;
});

async function companyItems(company: number, skPrefix: string) {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': `C#${company}`, ':p': skPrefix },
    }),
  );
  return out.Items ?? [];
}

async function guestEvents(company: number) {
  const out = await companyEvents(company);
  return (out.Items ?? []).filter((e) => e.payload.event === 'guest.created');
}

const guestCount = async (company: number) =>
  (await companyItems(company, 'GUEST#')).filter((i) => i.entity === 'GUEST').length;

async function addLocation(company: number, id: number) {
  const now = new Date().toISOString();
  const l: Location = {
    id,
    name: `Location ${id}`,
    timezone: 'Europe/Stockholm',
    operatingHours: Object.fromEntries(weekdays.map((d) => [d, []])) as unknown as Location['operatingHours'],
    address: null,
    phone: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await locations.create(company, l, newEvent(company, 'location.created', String(id), { ...l }));
}

/** Every page of a search, following nextCursor; checks each page's size and the pagination fields. */
async function searchAll(company: number, q: string, limit: number, locationId?: number) {
  const pages: GuestMatch[][] = [];
  let cursor: string | undefined;
  let total = 0;
  do {
    const page = await searchGuests(principal(company), {
      q,
      limit,
      page: 1,
      ...(cursor ? { cursor } : {}),
      ...(locationId ? { locationId } : {}),
    });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    expect(page.pagination.page).toBe(pages.length + 1);
    pages.push(page.items);
    cursor = page.pagination.nextCursor ?? undefined;
    total = page.pagination.total;
    expect(page.pagination.totalPages).toBe(cursor ? pages.length + 1 : pages.length);
  } while (cursor);
  const ids = pages.flat().map((g) => g.id);
  expect(total).toBe(ids.length);
  return { pages, ids };
}

describe('creating guests', () => {
  it('writes the guest, its contacts, its search tokens and guest.created in one transaction', async () => {
    const before = (await guestEvents(companyId)).length;
    sent.length = 0;
    const g = (await createGuest(principal(companyId), {
      name: ' Anna  Bergström ',
      email: ' Anna@Example.COM',
      phone: '0046 70-111 22 33',
    })) as Guest;
    expect(g).toEqual({
      id: expect.any(Number),
      name: 'Anna Bergström',
      email: 'anna@example.com',
      phone: '+46701112233',
      createdAt: expect.any(String),
      updatedAt: g.createdAt,
    });
    expect(sent).toEqual(['UpdateItem', 'TransactWriteItems']); // the id, then the one transaction
    expect(await guests.get(companyId, g.id)).toEqual(g);
    const stored = await companyItems(companyId, `GUEST#${String(g.id).padStart(12, '0')}`);
    expect(stored.map((i) => i.entity).sort()).toEqual([
      'GUEST',
      'GUEST_SEARCH',
      'GUEST_SEARCH',
      'GUEST_SEARCH',
      'GUEST_SEARCH',
    ]);
    expect(
      (await companyItems(companyId, 'GUESTCONTACT#'))
        .filter((i) => i.guestId === g.id)
        .map((i) => i.sk)
        .sort(),
    ).toEqual(['GUESTCONTACT#E#anna@example.com', 'GUESTCONTACT#P#+46701112233']);
    const events = await guestEvents(companyId);
    expect(events).toHaveLength(before + 1);
    expect(events.find((e) => e.payload.resourceId === String(g.id))?.payload).toMatchObject({
      event: 'guest.created',
      resource: 'guest',
      data: g,
    });
  });

  it('returns the existing guest for a repeat by email or by phone, writing nothing', async () => {
    const first = await createGuest(principal(companyId), {
      name: 'Björn Lind',
      email: 'bjorn@example.com',
      phone: '+46 70 222 33 44',
    });
    const guestsBefore = await guestCount(companyId);
    const eventsBefore = (await guestEvents(companyId)).length;
    const byEmail = await createGuest(principal(companyId), { name: 'Someone Else', email: 'BJORN@example.com' });
    const byPhone = await createGuest(principal(companyId), {
      name: 'B. Lind',
      phone: '0046 (70) 222-33-44',
      email: 'other@example.com',
    });
    expect(byEmail).toEqual(first);
    expect(byPhone).toEqual(first);
    expect(await guestCount(companyId)).toBe(guestsBefore);
    expect(await guestEvents(companyId)).toHaveLength(eventsBefore);
    // The repeat's other contact was not attached to the guest.
    expect(await companyItems(companyId, 'GUESTCONTACT#E#other@example.com')).toEqual([]);
  });

  it("returns the email's guest when email and phone belong to different guests", async () => {
    const a = await createGuest(principal(companyId), { name: 'Guest A', email: 'a.split@example.com' });
    const b = await createGuest(principal(companyId), { name: 'Guest B', phone: '+46703334455' });
    expect(
      (await createGuest(principal(companyId), { name: 'A or B', email: 'a.split@example.com', phone: '+46703334455' }))
        .id,
    ).toBe(a.id);
    expect(
      (await createGuest(principal(companyId), { name: 'B', phone: '+46703334455', email: 'new.one@example.com' })).id,
    ).toBe(b.id);
  });

  it('makes one guest of concurrent identical creates', async () => {
    const before = await guestCount(companyId);
    const made = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createGuest(principal(companyId), { name: `Racer ${i}`, email: 'racer@example.com', phone: '+46704445566' }),
      ),
    );
    expect(new Set(made.map((g) => g.id)).size).toBe(1);
    expect(await guestCount(companyId)).toBe(before + 1);
    expect((await guestEvents(companyId)).filter((e) => e.payload.data.email === 'racer@example.com')).toHaveLength(1);
  });

  it('keeps companies apart: the same email makes a separate guest in another company', async () => {
    const mine = await createGuest(principal(companyId), { name: 'Shared Person', email: 'shared@example.com' });
    const theirs = await createGuest(principal(otherCompany), { name: 'Shared Person', email: 'shared@example.com' });
    expect(theirs.id).not.toBe(mine.id);
    expect(await guests.get(companyId, theirs.id)).toBeUndefined();
    const found = await searchAll(companyId, 'shared', 20);
    expect(found.ids).toEqual([mine.id]);
    expect((await searchAll(otherCompany, 'shared', 20)).ids).toEqual([theirs.id]);
  });
});

describe('the search index on a few hundred guests', () => {
  let population: Guest[] = [];
  const named: Record<string, number> = {};

  beforeAll(async () => {
    // Hand-picked guests for exact expectations, then a generated population around them.
    const picked = [
      { name: 'Anna Bergström', email: 'anna.b@picked.example', phone: '+46705550001' },
      { name: 'Åsa Lind', email: 'lind@picked.example' },
      { name: 'Berit Åberg Nilsson', phone: '+46705550002' },
      { name: "Sean O'Brien", email: 'sean@picked.example' },
    ];
    for (const p of picked) named[p.name] = (await createGuest(principal(searchCompany), p)).id;
    const generated = guestPopulation(300);
    const made: Guest[] = [];
    for (let i = 0; i < generated.length; i += 12) {
      const batch = generated.slice(i, i + 12).map(({ name, email, phone }) => ({
        ...(name !== null ? { name } : {}),
        ...(email ? { email } : {}),
        ...(phone ? { phone } : {}),
      }));
      made.push(
        ...(await Promise.all(batch.map(async (body) => (await createGuest(principal(searchCompany), body)) as Guest))),
      );
    }
    population = [
      ...(await Promise.all(Object.values(named).map((id) => guests.get(searchCompany, id) as Promise<Guest>))),
      ...made,
    ];
    await addLocation(searchCompany, 901);
  });

  it('finds exactly the hand-picked guests by a word of the name, accents and case aside', async () => {
    const ids = async (q: string) =>
      (await searchAll(searchCompany, q, 50)).ids.filter((id) => Object.values(named).includes(id)).sort();
    expect(await ids('ber')).toEqual([named['Anna Bergström'], named['Berit Åberg Nilsson']].sort());
    expect(await ids('åsa')).toEqual([named['Åsa Lind']]);
    expect(await ids('ASA')).toEqual([named['Åsa Lind']]);
    expect(await ids('aberg')).toEqual([named['Berit Åberg Nilsson']]);
    expect(await ids('åberg nil')).toEqual([named['Berit Åberg Nilsson']]);
    expect(await ids("o'bri")).toEqual([named["Sean O'Brien"]]);
    expect(await ids('anna.b@pick')).toEqual([named['Anna Bergström']]);
    expect(await ids('+46 70 555 000')).toEqual([named['Anna Bergström'], named['Berit Åberg Nilsson']].sort());
    expect(await ids('0046705550002')).toEqual([named['Berit Åberg Nilsson']]);
  });

  it.each([
    'ber',
    'berg',
    'an',
    'anna k',
    'åsa',
    'asa',
    'öberg',
    'jose',
    'zoe',
    'jons',
    'bertil',
    'lars.',
    'anna.bergstrom',
    '+46 70',
    '+44 780 0',
    '0047 90',
    '49150',
  ])('pages through exactly the guests %j matches, each once', async (q) => {
    const { ids, pages } = await searchAll(searchCompany, q, 7);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(expectedMatches(population, q));
    // Every page is full except the last: guests matched by two tokens do not leave holes.
    for (const page of pages.slice(0, -1)) expect(page).toHaveLength(7);
  });

  it('answers page N by walking, the same as the cursor', async () => {
    const byCursor = await searchAll(searchCompany, 'ber', 5);
    const third = await searchGuests(principal(searchCompany), { q: 'ber', page: 3, limit: 5 });
    expect(third.items).toEqual(byCursor.pages[2]);
    expect(third.pagination.page).toBe(3);
    const past = await searchGuests(principal(searchCompany), { q: 'ber', page: 999, limit: 5 });
    expect(past.items).toEqual([]);
    expect(past.pagination).toMatchObject({ page: 999, total: byCursor.ids.length, nextCursor: null });
  });

  it('reads each page with one Query, and nothing else without a location', async () => {
    const first = await searchGuests(principal(searchCompany), { q: 'an', page: 1, limit: 20 });
    expect(sent).toEqual(['Query']);
    sent.length = 0;
    await searchGuests(principal(searchCompany), { q: 'an', page: 1, limit: 20, cursor: first.pagination.nextCursor! });
    expect(sent).toEqual(['Query']);
  });

  it('refuses cursors that are garbage or belong to another search', async () => {
    const first = await searchGuests(principal(searchCompany), { q: 'an', page: 1, limit: 5 });
    const cursor = first.pagination.nextCursor!;
    await expect(
      searchGuests(principal(searchCompany), { q: 'an', page: 1, limit: 5, cursor: 'garbage' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(searchGuests(principal(searchCompany), { q: 'ber', page: 1, limit: 5, cursor })).rejects.toMatchObject(
      { code: 'VALIDATION_FAILED' },
    );
    await expect(searchGuests(principal(otherCompany), { q: 'an', page: 1, limit: 5, cursor })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('reports the history the bookings code writes with guestHistoryStep, in one BatchGetItem per page', async () => {
    const anna = named['Anna Bergström']!;
    const berit = named['Berit Åberg Nilsson']!;
    const visit = '2026-11-19T19:30:00.000Z';
    // As a bookings transaction would: the history step beside the booking's own writes and event.
    await transact([
      guestHistoryStep(searchCompany, anna, 901, { bookings: 1 }),
      outboxStep(newEvent(searchCompany, 'booking.created', 'b-1', {})),
    ]);
    await transact([
      guestHistoryStep(searchCompany, anna, 901, { bookings: 1 }),
      outboxStep(newEvent(searchCompany, 'booking.created', 'b-2', {})),
    ]);
    await transact([
      guestHistoryStep(searchCompany, anna, 901, { lastVisitAt: visit }),
      outboxStep(newEvent(searchCompany, 'booking.completed', 'b-1', {})),
    ]);
    await transact([
      guestHistoryStep(searchCompany, anna, 901, { cancellations: 1 }),
      outboxStep(newEvent(searchCompany, 'booking.cancelled', 'b-2', {})),
    ]);
    await transact([
      guestHistoryStep(searchCompany, berit, 901, { bookings: 1, noShows: 1 }),
      outboxStep(newEvent(searchCompany, 'booking.no-show', 'b-3', {})),
    ]);

    sent.length = 0;
    const page = await searchGuests(principal(searchCompany), {
      q: '+46 70 555 000',
      page: 1,
      limit: 20,
      locationId: 901,
    });
    expect(sent).toEqual(['Query', 'BatchGetItem']);
    const byId = new Map(page.items.map((g) => [g.id, g.bookingHistory]));
    expect(byId.get(anna)).toEqual({
      locationId: 901,
      bookingCount: 2,
      lastVisitAt: visit,
      noShowCount: 0,
      cancellationCount: 1,
    });
    expect(byId.get(berit)).toEqual({
      locationId: 901,
      bookingCount: 1,
      lastVisitAt: null,
      noShowCount: 1,
      cancellationCount: 0,
    });

    const elsewhere = await searchGuests(principal(searchCompany), {
      q: 'lind@picked',
      page: 1,
      limit: 20,
      locationId: 901,
    });
    expect(elsewhere.items.map((g) => g.bookingHistory)).toEqual([
      { locationId: 901, bookingCount: 0, lastVisitAt: null, noShowCount: 0, cancellationCount: 0 },
    ]);
  });

  it('answers 404 for a location the company does not have, and 403 for one the key may not use', async () => {
    await expect(
      searchGuests(principal(searchCompany), { q: 'anna', page: 1, limit: 5, locationId: 902 }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      searchGuests(principal(searchCompany, [903]), { q: 'anna', page: 1, limit: 5, locationId: 901 }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
