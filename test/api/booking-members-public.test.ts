/**
 * The public member operations over HTTP, without a credential: the party by confirmation code
 * (names and replies only), adding to it, and RSVP by email.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, newClientAddress } from '../support/http';
import { act, admin, book, dayAhead, eventsOf, expectRefused, newPlace, type Place } from './bookings-helpers';

let place: Place;
beforeAll(async () => {
  place = await newPlace();
});

/** A booking of its own day, so bookings never compete for the table. */
let day = 10;
const booking = (extra: Record<string, unknown> = {}) => book(place, { bookingDate: dayAhead(day++), ...extra });

/** A well-formed code that no booking has (new codes are 18 characters: none is 8 long any more). */
const UNKNOWN_CODE = 'ZZZZ2222';
const MALFORMED = [
  ['7 characters', 'ABCDEFG'],
  ['9 characters', 'ABCDEFGHJ'],
  ['lower case', 'abcdefgh'],
  ['a look-alike 0', 'ABCDEFG0'],
] as const;

/**
 * Unknown and malformed codes are failed lookups, counted per client (docs/access.md, “Codes”):
 * they come from an address of this file's own, not 127.0.0.1, which every API file shares.
 */
const missFrom = newClientAddress();
const byCode = (code: string) => `/api/v1/bookings/by-code/${code}/members`;
const party = (code: string, from?: string) => call('GET', byCode(code), { from });
const join = (code: string, body: unknown, from?: string) => call('POST', byCode(code), { body, from });
const rsvp = (body: unknown, from?: string) => call('POST', '/api/v1/bookings/rsvp', { body, from });

/** What staff see of the booking's members. */
const staffView = async (bookingId: string) =>
  (await call('GET', `/api/v1/bookings/${bookingId}/members?limit=100`, { key: admin() })).body.data as Record<
    string,
    unknown
  >[];
const addAsStaff = (bookingId: string, body: unknown) =>
  call('POST', `/api/v1/bookings/${bookingId}/members`, { key: admin(), body });

let seq = 0;
const email = () => `rsvp${Date.now().toString(36)}${(seq++).toString(36)}@example.com`;

describe('GET /api/v1/bookings/by-code/{code}/members', () => {
  it('shows anyone holding the code the names and replies, in the order they were added, and nothing else', async () => {
    const b = await booking({ guestCount: 4 });
    const guest = (
      await call('POST', '/api/v1/users/guests', { key: admin(), body: { name: 'Ulla User', email: email() } })
    ).body.data;
    await addAsStaff(b.id, { guestName: 'Anna', guestEmail: email(), rsvpStatus: 'accepted' });
    await addAsStaff(b.id, { userId: guest.id });
    await addAsStaff(b.id, { guestName: 'Plus one', rsvpStatus: 'tentative' });
    const out = await party(b.confirmationCode);
    expect(out.status).toBe(200);
    expect(out.body).toEqual({
      status: 'success',
      data: [
        { guestName: 'Anna', rsvpStatus: 'accepted' },
        { guestName: 'Ulla User', rsvpStatus: 'invited' },
        { guestName: 'Plus one', rsvpStatus: 'tentative' },
      ],
      meta: { requestId: expect.any(String) },
    });
    // Each entry is exactly a name and a reply (toEqual above); no email or id of the booking or its members appears anywhere.
    const text = JSON.stringify(out.body);
    for (const secret of [guest.email, b.id, ...(await staffView(b.id)).map((m) => m.id as string)])
      expect(text).not.toContain(secret);
    expect(text).not.toContain('@');
  });

  it('answers an empty party for a booking without members', async () => {
    const b = await booking();
    expect((await party(b.confirmationCode)).body.data).toEqual([]);
  });

  it("carries the rate-limit headers of the caller's IP window", async () => {
    const b = await booking();
    const out = await party(b.confirmationCode);
    expect(Number(out.headers.get('x-ratelimit-limit'))).toBe(1000);
    expect(Number(out.headers.get('x-ratelimit-remaining'))).toBeLessThan(1000);
  });

  it('answers 404 for a code no booking has, saying nothing more', async () => {
    const out = await party(UNKNOWN_CODE, missFrom);
    expectRefused(out, 404, 'NOT_FOUND');
    expect(out.body.error).toEqual({ code: 'NOT_FOUND', message: 'Booking not found', details: [] });
  });

  it.each(MALFORMED)('answers 400 for a code with %s', async (_, code) => {
    expectRefused(await party(code, missFrom), 400, 'VALIDATION_FAILED', '/code');
  });
});

describe('POST /api/v1/bookings/by-code/{code}/members', () => {
  it('adds a member without a credential; staff see it with its email, and the event is recorded', async () => {
    const since = new Date().toISOString();
    const b = await booking();
    const address = email();
    const out = await join(b.confirmationCode, {
      guestName: ' Nils  Berg ',
      guestEmail: address.toUpperCase(),
      rsvpStatus: 'accepted',
    });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.data).toEqual({ guestName: 'Nils Berg', guestEmail: address, rsvpStatus: 'accepted' });
    const [member] = await staffView(b.id);
    expect(member).toMatchObject({ userId: null, guestName: 'Nils Berg', guestEmail: address, rsvpStatus: 'accepted' });
    expect(await eventsOf('booking-member.added', member!.id as string, since)).toHaveLength(1);
  });

  it('adds a member without an email, invited by default', async () => {
    const b = await booking();
    expect((await join(b.confirmationCode, { guestName: 'Someone' })).body.data).toEqual({
      guestName: 'Someone',
      guestEmail: null,
      rsvpStatus: 'invited',
    });
  });

  it.each([
    ['no name', { guestEmail: 'x@example.com' }, '/guestName'],
    ['a blank name', { guestName: ' ' }, '/guestName'],
    ['a name of 201 characters', { guestName: 'a'.repeat(201) }, '/guestName'],
    ['a bad email', { guestName: 'X', guestEmail: 'x@' }, '/guestEmail'],
    ['an unknown status', { guestName: 'X', rsvpStatus: 'going' }, '/rsvpStatus'],
    ['a userId (only staff add users)', { guestName: 'X', userId: 5 }, '/userId'],
  ])('answers 400 for %s and adds nothing', async (_, body, path) => {
    const b = await booking();
    expectRefused(await join(b.confirmationCode, body), 400, 'VALIDATION_FAILED', path);
    expect(await staffView(b.id)).toEqual([]);
  });

  it('answers 409 for an email already on the booking', async () => {
    const b = await booking();
    const address = email();
    await join(b.confirmationCode, { guestName: 'First', guestEmail: address });
    expectRefused(await join(b.confirmationCode, { guestName: 'Second', guestEmail: address }), 409, 'CONFLICT');
    expect((await staffView(b.id)).map((m) => m.guestName)).toEqual(['First']);
  });

  it('answers 422 when the party is full', async () => {
    const b = await booking({ guestCount: 1 });
    for (let i = 0; i < 11; i++) expect((await join(b.confirmationCode, { guestName: `G${i}` })).status).toBe(200);
    expectRefused(await join(b.confirmationCode, { guestName: 'Over' }), 422, 'UNPROCESSABLE');
    expect(await staffView(b.id)).toHaveLength(11);
  });

  it('answers 409 for a cancelled booking and adds nothing', async () => {
    const b = await booking();
    expect((await act(b.id, 'cancel', {})).status).toBe(200);
    expectRefused(await join(b.confirmationCode, { guestName: 'Late' }), 409, 'CONFLICT');
    expect(await staffView(b.id)).toEqual([]);
  });

  it('answers 404 for an unknown code and 400 for a malformed one', async () => {
    expectRefused(await join(UNKNOWN_CODE, { guestName: 'X' }, missFrom), 404, 'NOT_FOUND');
    for (const [, code] of MALFORMED)
      expectRefused(await join(code, { guestName: 'X' }, missFrom), 400, 'VALIDATION_FAILED', '/code');
  });
});

describe('POST /api/v1/bookings/rsvp', () => {
  it("adds the email's member with the reply, then changes that member's reply on a repeat in any case", async () => {
    const since = new Date().toISOString();
    const b = await booking();
    const address = email();
    const first = await rsvp({
      confirmationCode: b.confirmationCode,
      guestName: 'Eva Ek',
      guestEmail: address,
      rsvpStatus: 'tentative',
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toEqual({ guestName: 'Eva Ek', guestEmail: address, rsvpStatus: 'tentative' });
    const again = await rsvp({
      confirmationCode: b.confirmationCode,
      guestName: 'Eva',
      guestEmail: address.toUpperCase(),
      rsvpStatus: 'accepted',
    });
    // The answer is what the caller sent; the stored name is kept (and not shown).
    expect(again.body.data).toEqual({ guestName: 'Eva', guestEmail: address, rsvpStatus: 'accepted' });
    const [member, ...others] = await staffView(b.id);
    expect(others).toEqual([]);
    expect(member).toMatchObject({ guestName: 'Eva Ek', guestEmail: address, rsvpStatus: 'accepted', version: 2 });
    expect(await eventsOf('booking-member.added', member!.id as string, since)).toHaveLength(1);
    expect(await eventsOf('booking-member.updated', member!.id as string, since)).toEqual([
      expect.objectContaining({ changes: { rsvpStatus: 'accepted' } }),
    ]);
  });

  it("answers for a guest user staff invited, found by the guest's email", async () => {
    const b = await booking();
    const guest = (
      await call('POST', '/api/v1/users/guests', { key: admin(), body: { name: 'Gustav Guest', email: email() } })
    ).body.data;
    await addAsStaff(b.id, { userId: guest.id });
    const out = await rsvp({
      confirmationCode: b.confirmationCode,
      guestName: 'Gus',
      guestEmail: guest.email,
      rsvpStatus: 'declined',
    });
    expect(out.body.data).toEqual({ guestName: 'Gus', guestEmail: guest.email, rsvpStatus: 'declined' });
    expect(await staffView(b.id)).toEqual([
      expect.objectContaining({ userId: guest.id, guestName: 'Gustav Guest', rsvpStatus: 'declined' }),
    ]);
  });

  it('answers what the caller sent, never the name stored for the email', async () => {
    const b = await booking();
    const address = email();
    await addAsStaff(b.id, { guestName: 'Stella Stored', guestEmail: address });
    const out = await rsvp({
      confirmationCode: b.confirmationCode,
      guestName: 'Whoever Asks',
      guestEmail: address,
      rsvpStatus: 'accepted',
    });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.data).toEqual({ guestName: 'Whoever Asks', guestEmail: address, rsvpStatus: 'accepted' });
    expect(JSON.stringify(out.body)).not.toContain('Stella');
    // The invitation staff sent had no reply yet: the RSVP gave it; the stored name stays.
    expect(await staffView(b.id)).toEqual([
      expect.objectContaining({ guestName: 'Stella Stored', guestEmail: address, rsvpStatus: 'accepted' }),
    ]);
  });

  it('does not overwrite a reply staff gave, by name or by guest user: 409, the stored name not shown, nothing changed', async () => {
    const b = await booking({ guestCount: 4 });
    const address = email();
    await addAsStaff(b.id, { guestName: 'Hedda Host', guestEmail: address, rsvpStatus: 'declined' });
    const guest = (
      await call('POST', '/api/v1/users/guests', { key: admin(), body: { name: 'Ulf User', email: email() } })
    ).body.data;
    await addAsStaff(b.id, { userId: guest.id, rsvpStatus: 'accepted' });
    const before = await staffView(b.id);
    for (const [guestEmail, rsvpStatus] of [
      [address, 'accepted'],
      [address.toUpperCase(), 'declined'],
      [guest.email, 'declined'],
    ]) {
      const out = await rsvp({ confirmationCode: b.confirmationCode, guestName: 'Mallory', guestEmail, rsvpStatus });
      expectRefused(out, 409, 'CONFLICT');
      expect(out.body.error.message).toMatch(/only the restaurant can change it/);
      expect(JSON.stringify(out.body)).not.toMatch(/Hedda|Ulf/);
    }
    expect(await staffView(b.id)).toEqual(before);
  });

  it('lets an RSVP change a reply made by RSVP with the same email, until staff change it', async () => {
    const b = await booking();
    const address = email();
    const answer = (rsvpStatus: string) =>
      rsvp({ confirmationCode: b.confirmationCode, guestName: 'Rita', guestEmail: address, rsvpStatus });
    expect((await answer('accepted')).status).toBe(200);
    expect((await answer('tentative')).status).toBe(200);
    const [member] = await staffView(b.id);
    expect(member).toMatchObject({ rsvpStatus: 'tentative' });
    const patched = await call('PATCH', `/api/v1/bookings/${b.id}/members/${member!.id as string}`, {
      key: admin(),
      body: { rsvpStatus: 'declined' },
    });
    expect(patched.status).toBe(200);
    expectRefused(await answer('accepted'), 409, 'CONFLICT');
    expect(await staffView(b.id)).toEqual([expect.objectContaining({ rsvpStatus: 'declined' })]);
  });

  it("adds a member of its own beside a member without an email: another member's reply is not touched", async () => {
    const b = await booking();
    await addAsStaff(b.id, { guestName: 'Plus One', rsvpStatus: 'accepted' });
    const address = email();
    const out = await rsvp({
      confirmationCode: b.confirmationCode,
      guestName: 'Plus One',
      guestEmail: address,
      rsvpStatus: 'declined',
    });
    expect(out.body.data).toEqual({ guestName: 'Plus One', guestEmail: address, rsvpStatus: 'declined' });
    expect(await staffView(b.id)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ guestName: 'Plus One', guestEmail: null, rsvpStatus: 'accepted' }),
        expect.objectContaining({ guestName: 'Plus One', guestEmail: address, rsvpStatus: 'declined' }),
      ]),
    );
  });

  it('makes one member of concurrent RSVPs for one email', async () => {
    const b = await booking();
    const address = email();
    const answers = await Promise.all(
      (['accepted', 'declined', 'tentative', 'accepted'] as const).map((rsvpStatus) =>
        rsvp({ confirmationCode: b.confirmationCode, guestName: 'Racer', guestEmail: address, rsvpStatus }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(await staffView(b.id)).toHaveLength(1);
  });

  it.each([
    ['invited (not an answer)', { rsvpStatus: 'invited' }, '/rsvpStatus'],
    ['no email', { guestEmail: undefined }, '/guestEmail'],
    ['no name', { guestName: undefined }, '/guestName'],
    ['no code', { confirmationCode: undefined }, '/confirmationCode'],
    ['a malformed code', { confirmationCode: 'abcdefgh' }, '/confirmationCode'],
    ['a bad email', { guestEmail: 'eva' }, '/guestEmail'],
    ['an unknown field', { seats: 2 }, '/seats'],
  ])('answers 400 for %s and changes nothing', async (_, change, path) => {
    const b = await booking();
    const body = {
      confirmationCode: b.confirmationCode,
      guestName: 'Eva',
      guestEmail: email(),
      rsvpStatus: 'accepted',
      ...change,
    };
    expectRefused(await rsvp(body, missFrom), 400, 'VALIDATION_FAILED', path);
    expect(await staffView(b.id)).toEqual([]);
  });

  it('answers 404 for a code no booking has, saying nothing more', async () => {
    const out = await rsvp(
      { confirmationCode: UNKNOWN_CODE, guestName: 'Eva', guestEmail: email(), rsvpStatus: 'accepted' },
      missFrom,
    );
    expectRefused(out, 404, 'NOT_FOUND');
    expect(out.body.error).toEqual({ code: 'NOT_FOUND', message: 'Booking not found', details: [] });
  });

  it('answers 409 for a cancelled booking and changes nothing', async () => {
    const b = await booking();
    const address = email();
    await rsvp({ confirmationCode: b.confirmationCode, guestName: 'Eva', guestEmail: address, rsvpStatus: 'accepted' });
    expect((await act(b.id, 'cancel', {})).status).toBe(200);
    expectRefused(
      await rsvp({
        confirmationCode: b.confirmationCode,
        guestName: 'Eva',
        guestEmail: address,
        rsvpStatus: 'declined',
      }),
      409,
      'CONFLICT',
    );
    expect(await staffView(b.id)).toEqual([expect.objectContaining({ rsvpStatus: 'accepted' })]);
  });
});
