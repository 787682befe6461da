/** Booking members by booking id over HTTP: add, update, list; permissions, tenancy, locations, refusals. */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, company } from '../support/http';
import {
  act,
  admin,
  book,
  dayAhead,
  eventsOf,
  expectRefused,
  keyWith,
  newPlace,
  theirAdmin,
  unknownUuid,
  type Place,
} from './bookings-helpers';

let place: Place;
beforeAll(async () => {
  place = await newPlace();
});

/** A booking of its own day, so bookings never compete for the table. */
let day = 10;
const booking = (extra: Record<string, unknown> = {}) => book(place, { bookingDate: dayAhead(day++), ...extra });

const members = (bookingId: string) => `/api/v1/bookings/${bookingId}/members`;
const addMember = (bookingId: string, body: unknown, key = admin()) => call('POST', members(bookingId), { key, body });
const patchMember = (bookingId: string, memberId: string, body: unknown, key = admin()) =>
  call('PATCH', `${members(bookingId)}/${memberId}`, { key, body });
const listMembers = (bookingId: string, query = '', key = admin()) =>
  call('GET', `${members(bookingId)}${query}`, { key });

/** The booking's members as staff see them (everything, in one page). */
const stored = async (bookingId: string) =>
  (await listMembers(bookingId, '?limit=100')).body.data as Record<string, unknown>[];

let seq = 0;
const email = () => `member${Date.now().toString(36)}${(seq++).toString(36)}@example.com`;

async function newGuest(): Promise<{ id: number; name: string; email: string }> {
  const out = await call('POST', '/api/v1/users/guests', {
    key: admin(),
    body: { name: `Guest ${seq++}`, email: email() },
  });
  expect(out.status).toBe(200);
  return out.body.data;
}

describe('POST /api/v1/bookings/{id}/members', () => {
  it('adds a member by name and email (normalized, invited by default), records the event, and lists it', async () => {
    const since = new Date().toISOString();
    const b = await booking();
    const address = email();
    const out = await addMember(b.id, { guestName: '  Karin   Öberg ', guestEmail: address.toUpperCase() });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      bookingId: b.id,
      userId: null,
      guestName: 'Karin Öberg',
      guestEmail: address,
      rsvpStatus: 'invited',
      version: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect(await stored(b.id)).toEqual([out.body.data]);
    const events = await eventsOf('booking-member.added', out.body.data.id, since);
    expect(events).toEqual([
      expect.objectContaining({ event: 'booking-member.added', resource: 'booking-member', data: out.body.data }),
    ]);
  });

  it("adds a guest user by userId: the member takes the guest's name and email", async () => {
    const b = await booking();
    const guest = await newGuest();
    const out = await addMember(b.id, { userId: guest.id, rsvpStatus: 'accepted' });
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({
      userId: guest.id,
      guestName: guest.name,
      guestEmail: guest.email,
      rsvpStatus: 'accepted',
    });
  });

  it("answers 404 naming userId for a user the company does not have (another company's guest included)", async () => {
    const b = await booking();
    const theirs = await call('POST', '/api/v1/users/guests', {
      key: theirAdmin(),
      body: { name: 'Not yours', email: email() },
    });
    for (const userId of [999_999_999, theirs.body.data.id])
      expectRefused(await addMember(b.id, { userId }), 404, 'NOT_FOUND', '/userId');
    expect(await stored(b.id)).toEqual([]);
  });

  it.each([
    ['neither userId nor guestName', { rsvpStatus: 'invited' }, '/guestName'],
    ['userId with guestName', { userId: 1, guestName: 'X' }, '/guestName'],
    ['userId with guestEmail', { userId: 1, guestEmail: 'x@example.com' }, '/guestEmail'],
    ['a userId of 0', { userId: 0 }, '/userId'],
    ['an empty name', { guestName: '' }, '/guestName'],
    ['a blank name', { guestName: '   ' }, '/guestName'],
    ['a name of 201 characters', { guestName: 'a'.repeat(201) }, '/guestName'],
    ['a bad email', { guestName: 'X', guestEmail: 'nope' }, '/guestEmail'],
    ['an email of 255 characters', { guestName: 'X', guestEmail: `${'a'.repeat(243)}@example.com` }, '/guestEmail'],
    ['an unknown status', { guestName: 'X', rsvpStatus: 'maybe' }, '/rsvpStatus'],
    ['an unknown field', { guestName: 'X', plusOne: true }, '/plusOne'],
    // No body is an empty one: it names no member.
    ['no body', undefined, '/guestName'],
  ])('answers 400 for %s and adds nothing', async (_, body, path) => {
    const b = await booking();
    expectRefused(await addMember(b.id, body), 400, 'VALIDATION_FAILED', path);
    expect(await stored(b.id)).toEqual([]);
  });

  it('answers 400 for a booking id that is not a UUID', async () => {
    expectRefused(await addMember('not-a-uuid', { guestName: 'X' }), 400, 'VALIDATION_FAILED', '/id');
  });

  it('answers 409 for an email or user already on the booking, in any case, and adds nothing', async () => {
    const b = await booking();
    const guest = await newGuest();
    const address = email();
    await addMember(b.id, { guestName: 'First', guestEmail: address });
    await addMember(b.id, { userId: guest.id });
    const before = await stored(b.id);
    expectRefused(await addMember(b.id, { guestName: 'Again', guestEmail: address.toUpperCase() }), 409, 'CONFLICT');
    expectRefused(await addMember(b.id, { userId: guest.id }), 409, 'CONFLICT');
    // The guest user's email is taken by the name member added with it.
    expectRefused(await addMember(b.id, { guestName: 'Same person', guestEmail: guest.email }), 409, 'CONFLICT');
    expect(await stored(b.id)).toEqual(before);
  });

  it('keeps a party to guestCount + 10 members: the next one answers 422', async () => {
    const b = await booking({ guestCount: 1 });
    const added = await Promise.all(Array.from({ length: 11 }, (_, i) => addMember(b.id, { guestName: `Guest ${i}` })));
    expect(added.map((a) => a.status)).toEqual(Array(11).fill(200));
    const over = await addMember(b.id, { guestName: 'One too many' });
    expectRefused(over, 422, 'UNPROCESSABLE');
    expect(over.body.error.message).toBe('A booking for 1 guests can have at most 11 members');
    expect((await listMembers(b.id)).body.meta.pagination.total).toBe(11);
  });

  it.each([
    ['cancelled', 'cancel'],
    ['marked a no-show', 'no-show'],
  ])('answers 409 for a booking %s and adds nothing', async (_, operation) => {
    const b = await booking();
    expect((await act(b.id, operation, {})).status).toBe(200);
    expectRefused(await addMember(b.id, { guestName: 'Too late' }), 409, 'CONFLICT');
    expect(await stored(b.id)).toEqual([]);
  });

  it('answers 403 to a key without bookings.manage, and adds nothing', async () => {
    const b = await booking();
    const key = await keyWith(['bookings.read', 'bookings.create', 'bookings.update']);
    expectRefused(await addMember(b.id, { guestName: 'X' }, key), 403, 'FORBIDDEN');
    expect(await stored(b.id)).toEqual([]);
  });

  it("answers 404 for another company's booking and for an unknown one", async () => {
    const b = await booking();
    expectRefused(await addMember(b.id, { guestName: 'X' }, theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(await addMember(unknownUuid, { guestName: 'X' }), 404, 'NOT_FOUND');
    expect(await stored(b.id)).toEqual([]);
  });

  it("answers 403 to a key limited to other locations, 200 to one limited to the booking's", async () => {
    const b = await booking();
    const elsewhere = await keyWith(['bookings.manage', 'bookings.read'], [place.id + 100_000]);
    const here = await keyWith(['bookings.manage', 'bookings.read'], [place.id]);
    expectRefused(await addMember(b.id, { guestName: 'X' }, elsewhere), 403, 'FORBIDDEN');
    expect((await addMember(b.id, { guestName: 'Y' }, here)).status).toBe(200);
    expect((await stored(b.id)).map((m) => m.guestName)).toEqual(['Y']);
  });

  it('answers 401 without a credential', async () => {
    const b = await booking();
    expectRefused(await call('POST', members(b.id), { body: { guestName: 'X' } }), 401, 'UNAUTHENTICATED');
  });
});

describe('PATCH /api/v1/bookings/{id}/members/{memberId}', () => {
  async function withMember(extra: Record<string, unknown> = {}) {
    const b = await booking(extra);
    const m = (await addMember(b.id, { guestName: 'Åsa', guestEmail: email() })).body.data;
    return { b, m };
  }

  it('sets the reply, bumps the version, and records the change', async () => {
    const since = new Date().toISOString();
    const { b, m } = await withMember();
    const out = await patchMember(b.id, m.id, { rsvpStatus: 'tentative' });
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({
      ...m,
      rsvpStatus: 'tentative',
      version: 2,
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect(await stored(b.id)).toEqual([out.body.data]);
    const events = await eventsOf('booking-member.updated', m.id, since);
    expect(events).toEqual([expect.objectContaining({ changes: { rsvpStatus: 'tentative' }, data: out.body.data })]);
  });

  it('changes nothing when the reply is already the one asked for', async () => {
    const since = new Date().toISOString();
    const { b, m } = await withMember();
    const out = await patchMember(b.id, m.id, { rsvpStatus: 'invited' });
    expect(out.body.data).toEqual(m);
    expect(await eventsOf('booking-member.updated', m.id, since)).toEqual([]);
  });

  it.each([
    ['no status', {}, '/rsvpStatus'],
    ['an unknown status', { rsvpStatus: 'yes' }, '/rsvpStatus'],
    ['a name change', { rsvpStatus: 'accepted', guestName: 'Other' }, '/guestName'],
  ])('answers 400 for %s and changes nothing', async (_, body, path) => {
    const { b, m } = await withMember();
    expectRefused(await patchMember(b.id, m.id, body), 400, 'VALIDATION_FAILED', path);
    expect(await stored(b.id)).toEqual([m]);
  });

  it('answers 400 for a member id that is not a UUID', async () => {
    const { b } = await withMember();
    expectRefused(await patchMember(b.id, '42', { rsvpStatus: 'accepted' }), 400, 'VALIDATION_FAILED', '/memberId');
  });

  it("answers 404 for an unknown member, and for a member under another booking's id", async () => {
    const { b, m } = await withMember();
    const other = await booking();
    expectRefused(await patchMember(b.id, unknownUuid, { rsvpStatus: 'accepted' }), 404, 'NOT_FOUND');
    expectRefused(await patchMember(other.id, m.id, { rsvpStatus: 'accepted' }), 404, 'NOT_FOUND');
    expect(await stored(b.id)).toEqual([m]);
  });

  it('answers 409 once the booking is cancelled, and changes nothing', async () => {
    const { b, m } = await withMember();
    expect((await act(b.id, 'cancel', {})).status).toBe(200);
    expectRefused(await patchMember(b.id, m.id, { rsvpStatus: 'accepted' }), 409, 'CONFLICT');
    expect(await stored(b.id)).toEqual([m]);
  });

  it("answers 403 without bookings.manage or outside the key's locations, 404 across the tenant wall", async () => {
    const { b, m } = await withMember();
    const readOnly = await keyWith(['bookings.read']);
    const elsewhere = await keyWith(['bookings.manage'], [place.id + 100_000]);
    expectRefused(await patchMember(b.id, m.id, { rsvpStatus: 'accepted' }, readOnly), 403, 'FORBIDDEN');
    expectRefused(await patchMember(b.id, m.id, { rsvpStatus: 'accepted' }, elsewhere), 403, 'FORBIDDEN');
    expectRefused(await patchMember(b.id, m.id, { rsvpStatus: 'accepted' }, theirAdmin()), 404, 'NOT_FOUND');
    expect(await stored(b.id)).toEqual([m]);
  });
});

describe('GET /api/v1/bookings/{id}/members', () => {
  it('lists the members with their pagination, by page and by cursor', async () => {
    const b = await booking({ guestCount: 4 });
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await addMember(b.id, { guestName: `Guest ${i}` })).body.data);
    const byId = made.map((m) => m.id).sort();
    const first = await listMembers(b.id, '?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((m: { id: string }) => m.id)).toEqual(byId.slice(0, 2));
    expect(first.body.meta.pagination).toEqual({
      page: 1,
      limit: 2,
      total: 5,
      totalPages: 3,
      nextCursor: expect.any(String),
    });
    const next = await listMembers(b.id, `?limit=2&cursor=${first.body.meta.pagination.nextCursor}`);
    expect(next.body.data).toEqual((await listMembers(b.id, '?limit=2&page=2')).body.data);
    const last = await listMembers(b.id, '?limit=2&page=3');
    expect(last.body.data.map((m: { id: string }) => m.id)).toEqual(byId.slice(4));
    expect(last.body.meta.pagination.nextCursor).toBeNull();
  });

  it('answers an empty list for a booking without members', async () => {
    const b = await booking();
    const out = await listMembers(b.id);
    expect(out.body.data).toEqual([]);
    expect(out.body.meta.pagination).toMatchObject({ page: 1, limit: 20, total: 0 });
  });

  it.each([
    ['limit 0', '?limit=0', '/limit'],
    ['limit 101', '?limit=101', '/limit'],
    ['page 0', '?page=0', '/page'],
    ['a cursor of another list', '?cursor=eyJwIjoyfQ', '/cursor'],
  ])('answers 400 for %s', async (_, query, path) => {
    const b = await booking();
    await addMember(b.id, { guestName: 'X' });
    expectRefused(await listMembers(b.id, query), 400, 'VALIDATION_FAILED', path);
  });

  it("answers 404 for another company's booking and for an unknown one", async () => {
    const b = await booking();
    await addMember(b.id, { guestName: 'X' });
    expectRefused(await listMembers(b.id, '', theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(await listMembers(unknownUuid), 404, 'NOT_FOUND');
  });

  it("answers 403 without bookings.read, and outside the key's locations (with or without members)", async () => {
    const full = await booking();
    const empty = await booking();
    await addMember(full.id, { guestName: 'X' });
    const noRead = await keyWith(['bookings.manage']);
    const elsewhere = await keyWith(['bookings.read'], [place.id + 100_000]);
    expectRefused(await listMembers(full.id, '', noRead), 403, 'FORBIDDEN');
    expectRefused(await listMembers(full.id, '', elsewhere), 403, 'FORBIDDEN');
    expectRefused(await listMembers(empty.id, '', elsewhere), 403, 'FORBIDDEN');
    expect((await listMembers(full.id, '', company(1).keys.readonly)).status).toBe(200);
  });
});
