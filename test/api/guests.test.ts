/** Guest users over HTTP against the local stage: create with dedupe, search, permissions, tenancy, location limits, phone numbers. */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, company } from '../support/http';
import { testKey } from '../support/stage-data';
import { book, dayAhead, newPlace, type Place } from './bookings-helpers';

const admin = () => company(1).keys.admin;
// (bookings-helpers' newPlace and book act as company 1 too: this file does not use useOwnCompany.)
const theirAdmin = () => company(2).keys.admin;

/** Letters only, unique to this run and call: a name word no other guest has. */
let seq = 0;
const letters = (n: number) => [...n.toString(26)].map((c) => String.fromCharCode(97 + parseInt(c, 26))).join('');
const word = () => `Qx${letters(Date.now())}${letters(seq++)}`;
const phone = () => `+4670${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

const create = (body: unknown, key = admin()) => call('POST', '/api/v1/users/guests', { key, body });
const search = (query: string, key = admin()) => call('GET', `/api/v1/users/search?${query}`, { key });
const ids = (answer: { body: { data: { id: number }[] } }) => answer.body.data.map((g) => g.id);

/** The guests of company 1 whose names hold `w`: what a refused request must not have added. */
const namedCount = async (w: string) => (await search(`q=${w}&limit=50`)).body.data.length;

describe('POST /api/v1/users/guests', () => {
  it('creates a guest with its email lower-cased and its phone in E.164', async () => {
    const surname = word();
    const out = await create({
      name: `  Åsa  ${surname} `,
      email: `${surname}@Example.COM`,
      phone: '0046 (70) 765-43-21',
    });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({
      status: 'success',
      data: {
        id: expect.any(Number),
        name: `Åsa ${surname}`,
        email: `${surname.toLowerCase()}@example.com`,
        phone: '+46707654321',
        createdAt: expect.stringMatching(/Z$/),
        updatedAt: expect.stringMatching(/Z$/),
      },
      meta: { requestId: expect.any(String) },
    });
    expect(out.body.data.id).toBeGreaterThanOrEqual(1000); // numeric, from the user id sequence
    const found = await search(`q=${surname}`);
    expect(found.body.data).toEqual([out.body.data]);
  });

  it('accepts a guest with only an email or only a phone', async () => {
    const a = word();
    const b = word();
    expect((await create({ name: a, email: `${a}@example.com` })).body.data).toMatchObject({
      email: `${a.toLowerCase()}@example.com`,
      phone: null,
    });
    expect((await create({ name: b, phone: '+44 7911 123 456' })).body.data).toMatchObject({
      email: null,
      phone: '+447911123456',
    });
  });

  it('creates a guest without a name (an email or a phone is what it needs)', async () => {
    const w = word();
    const out = await create({ email: `${w}@example.com` });
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({
      id: expect.any(Number),
      name: null,
      email: `${w.toLowerCase()}@example.com`,
      phone: null,
    });
    expect(ids(await search(`q=${w}@exa`))).toEqual([out.body.data.id]);
  });

  it('returns the existing guest (200, same id) for a repeat by email or by phone, and never a duplicate', async () => {
    const w = word();
    const number = phone();
    const first = await create({ name: `Anna ${w}`, email: `${w}@example.com`, phone: number });
    const byEmail = await create({ name: `Other ${w}`, email: `${w.toUpperCase()}@EXAMPLE.com` });
    const byPhone = await create({ name: `Third ${w}`, phone: `00${number.slice(1, 3)} ${number.slice(3)}` });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data).toEqual(first.body.data);
    expect(byPhone.body.data).toEqual(first.body.data);
    expect(ids(await search(`q=${w}`))).toEqual([first.body.data.id]);
  });

  it('makes one guest of concurrent identical creates', async () => {
    const w = word();
    const number = phone();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => create({ name: `Racer ${w}`, email: `${w}@example.com`, phone: number })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(ids(await search(`q=${w}`))).toEqual([answers[0]!.body.data.id]);
  });

  it("answers the email's guest when email and phone belong to different guests", async () => {
    const w = word();
    const number = phone();
    const a = await create({ name: `A ${w}`, email: `${w}@example.com` });
    const b = await create({ name: `B ${w}`, phone: number });
    const both = await create({ name: `C ${w}`, email: `${w}@example.com`, phone: number });
    expect(both.body.data.id).toBe(a.body.data.id);
    expect(ids(await search(`q=${w}`)).sort()).toEqual([a.body.data.id, b.body.data.id].sort());
  });

  it.each([
    ['an empty name', { name: '', email: 'x@example.com' }, '/name'],
    ['a blank name', { name: '   ', email: 'x@example.com' }, '/name'],
    ['a name of 201 characters', { name: 'a'.repeat(201), email: 'x@example.com' }, '/name'],
    ['a bad email', { name: 'X', email: 'not-an-email' }, '/email'],
    ['a phone without a country code', { name: 'X', phone: '070-123 45 67' }, '/phone'],
    ['a phone with letters', { name: 'X', phone: '+46 70 CALL ME' }, '/phone'],
    ['a phone of 7 digits', { name: 'X', phone: '+4670123' }, '/phone'],
    ['a phone no number of its country starts with', { name: 'X', phone: '+46 00 123 4567' }, '/phone'],
    ['a phone with an unassigned country code', { name: 'X', phone: '+999 1234 5678' }, '/phone'],
    ['an unknown field', { name: 'X', email: 'x@example.com', vip: true }, '/vip'],
  ])('answers 400 for %s, naming the field', async (_, body, path) => {
    const out = await create(body);
    expect(out.status).toBe(400);
    expect(out.body.error.code).toBe('VALIDATION_FAILED');
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('answers 400 without email and phone, names both fields, and creates nothing', async () => {
    const w = word();
    const out = await create({ name: `Nobody ${w}` });
    expect(out.status).toBe(400);
    expect(out.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: '/email' }, { path: '/phone' }],
    });
    expect(await namedCount(w)).toBe(0);
  });

  it('refuses an impossible number with a message saying so, and creates nothing', async () => {
    const w = word();
    const out = await create({ name: `Impossible ${w}`, phone: '+46 70 123' });
    expect(out.status).toBe(400);
    expect(out.body.error.details).toEqual([
      { path: '/phone', message: expect.stringContaining('not a possible phone number') },
    ]);
    expect(await namedCount(w)).toBe(0);
  });

  it('says clearly that a phone needs its country code, and creates nothing', async () => {
    const w = word();
    const out = await create({ name: `Local ${w}`, phone: '(070) 123 45 67' });
    expect(out.body.error.details).toEqual([{ path: '/phone', message: expect.stringContaining('country code') }]);
    expect(await namedCount(w)).toBe(0);
  });

  it('answers 403 to a key without bookings.create, and creates nothing', async () => {
    const key = await testKey(1, { permissions: ['bookings.read'] });
    const w = word();
    const out = await create({ name: w, email: `${w}@example.com` }, key);
    expect(out.status).toBe(403);
    expect(out.body.error.code).toBe('FORBIDDEN');
    expect(await namedCount(w)).toBe(0);
  });

  it('answers 401 without a credential', async () => {
    expect((await call('POST', '/api/v1/users/guests', { body: { name: 'X', email: 'x@example.com' } })).status).toBe(
      401,
    );
  });

  it('keeps companies apart: the same email makes another company its own guest', async () => {
    const w = word();
    const mine = await create({ name: `Mine ${w}`, email: `${w}@example.com` });
    const theirs = await create({ name: `Theirs ${w}`, email: `${w}@example.com` }, theirAdmin());
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    expect(ids(await search(`q=${w}`))).toEqual([mine.body.data.id]);
    expect(ids(await search(`q=${w}`, theirAdmin()))).toEqual([theirs.body.data.id]);
  });
});

describe('GET /api/v1/users/search', () => {
  it('finds by email prefix, phone prefix and any name word prefix, accents and case aside', async () => {
    const w = word();
    const number = phone();
    const g = (await create({ name: `Åsa Bergström-${w}`, email: `${w}.asa@example.com`, phone: number })).body.data;
    for (const q of [`${w}.as`, w.toLowerCase(), `bergstrom ${w}`, `BERGSTRÖM-${w}`, number, `00${number.slice(1)}`]) {
      const out = await search(`q=${encodeURIComponent(q)}&limit=50`);
      expect(out.status, q).toBe(200);
      expect(ids(out), q).toContain(g.id);
    }
    const accented = await search(`q=${encodeURIComponent(`åsa bergström ${w}`)}`);
    expect(ids(accented)).toEqual([g.id]);
  });

  it('pages with nextCursor, every pagination field present', async () => {
    const w = word();
    const made = [];
    for (const first of ['Alma', 'Bo', 'Cleo'])
      made.push((await create({ name: `${first} ${w}`, email: `${first}.${w}@example.com` })).body.data.id);
    const one = await search(`q=${w}&limit=2`);
    expect(one.body.data).toHaveLength(2);
    expect(one.body.meta.pagination).toEqual({
      page: 1,
      limit: 2,
      total: 2,
      totalPages: 2,
      nextCursor: expect.any(String),
    });
    const two = await search(`q=${w}&limit=2&cursor=${one.body.meta.pagination.nextCursor}`);
    expect(two.body.meta.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2, nextCursor: null });
    expect([...ids(one), ...ids(two)].sort()).toEqual(made.sort());
    expect(ids(await search(`q=${w}&limit=2&page=2`))).toEqual(ids(two));
    const garbage = await search(`q=${w}&cursor=nope`);
    expect(garbage.status).toBe(400);
  });

  it('defaults to 20 results and accepts 50', async () => {
    expect((await search('q=qx')).body.meta.pagination.limit).toBe(20);
    expect((await search('q=qx&limit=50')).status).toBe(200);
    expect((await search('q=qx&limit=1')).status).toBe(200);
  });

  it.each([
    ['q of 1 character', 'q=a', '/q'],
    ['no q', 'limit=5', '/q'],
    ['a q without 2 letters or digits', `q=${encodeURIComponent(' !')}`, '/q'],
    ['limit 0', 'q=an&limit=0', '/limit'],
    ['limit 51', 'q=an&limit=51', '/limit'],
    ['a locationId that is not a number', 'q=an&locationId=abc', '/locationId'],
  ])('answers 400 for %s', async (_, query, path) => {
    const out = await search(query);
    expect(out.status).toBe(400);
    expect(out.body.error.code).toBe('VALIDATION_FAILED');
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('with locationId, gives each guest its booking history there (zeros before any booking)', async () => {
    const w = word();
    const g = (await create({ name: `History ${w}`, email: `${w}@example.com` })).body.data;
    const location = company(1).locations[0]!.locationId;
    const out = await search(`q=${w}&locationId=${location}`);
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual([
      {
        ...g,
        bookingHistory: {
          locationId: location,
          bookingCount: 0,
          lastVisitAt: null,
          noShowCount: 0,
          cancellationCount: 0,
        },
      },
    ]);
    expect((await search(`q=${w}`)).body.data[0]).not.toHaveProperty('bookingHistory');
  });

  it('answers 403 to a key without bookings.read', async () => {
    const key = await testKey(1, { permissions: ['bookings.create'] });
    const out = await search('q=an', key);
    expect(out.status).toBe(403);
    expect(out.body.error.code).toBe('FORBIDDEN');
  });

  it('answers 403 for a location the key is not limited to, and serves its own', async () => {
    const [here, there] = company(1).locations.map((l) => l.locationId);
    const key = await testKey(1, { permissions: ['bookings.read'], locationIds: [here!] });
    expect((await search(`q=an&locationId=${there}`, key)).status).toBe(403);
    expect((await search(`q=an&locationId=${here}`, key)).status).toBe(200);
    expect((await search('q=an', key)).status).toBe(200);
  });

  it("never shows another company's guests, and answers 404 for its location", async () => {
    const w = word();
    const theirs = await create({ name: `Hidden ${w}`, email: `${w}@example.com`, phone: phone() }, theirAdmin());
    expect(theirs.status).toBe(200);
    for (const q of [w, `${w}@exa`, encodeURIComponent(theirs.body.data.phone)])
      expect(ids(await search(`q=${q}`)), q).not.toContain(theirs.body.data.id);
    const foreign = await search(`q=${w}&locationId=${company(2).locations[0]!.locationId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
  });
});

describe('local phone numbers, read in the country of a location', () => {
  /** A location of company 1 of this file's own, in Sweden. */
  let swedish: Place;
  beforeAll(async () => {
    swedish = await newPlace();
    const out = await call('PATCH', `/api/v1/locations/${swedish.id}`, { key: admin(), body: { country: 'SE' } });
    expect(out.body.data.country).toBe('SE');
  });
  const at = (locationId: number) => ({ 'X-Location-Id': String(locationId) });

  it('stores a local number given at a Swedish location (X-Location-Id) in E.164', async () => {
    const w = word();
    const out = await call('POST', '/api/v1/users/guests', {
      key: admin(),
      headers: at(swedish.id),
      body: { name: `Local ${w}`, phone: '070-123 45 67' },
    });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.data.phone).toBe('+46701234567');
    // The same person typed internationally is the same guest.
    expect((await create({ name: `Again ${w}`, phone: '+46 70 123 45 67' })).body.data.id).toBe(out.body.data.id);
  });

  it('finds a guest by the local form of the number, whole or its start, at the location', async () => {
    const w = word();
    const national = `70${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const g = (await create({ name: `Found ${w}`, phone: `+46${national}` })).body.data;
    const local = `0${national.slice(0, 2)}-${national.slice(2, 5)} ${national.slice(5, 7)} ${national.slice(7)}`;
    for (const q of [local, local.slice(0, 7)]) {
      const out = await search(`q=${encodeURIComponent(q)}&locationId=${swedish.id}&limit=50`);
      expect(out.status, q).toBe(200);
      expect(ids(out), q).toContain(g.id);
    }
    const byHeader = await call('GET', `/api/v1/users/search?q=${encodeURIComponent(local)}`, {
      key: admin(),
      headers: at(swedish.id),
    });
    expect(ids(byHeader)).toEqual([g.id]);
    // Without a location the local form names no country, and matches nobody's stored number.
    expect(ids(await search(`q=${encodeURIComponent(local)}`))).toEqual([]);
  });

  it('refuses a local number with no location to read it by, or an impossible one at the location (400, nothing created)', async () => {
    const w = word();
    const none = await create({ name: `Nowhere ${w}`, phone: '070-123 45 67' });
    expect(none.status).toBe(400);
    expect(none.body.error.details).toEqual([{ path: '/phone', message: expect.stringContaining('country code') }]);
    const impossible = await call('POST', '/api/v1/users/guests', {
      key: admin(),
      headers: at(swedish.id),
      body: { name: `Short ${w}`, phone: '070-12' },
    });
    expect(impossible.status).toBe(400);
    expect(impossible.body.error.details).toEqual([
      { path: '/phone', message: expect.stringContaining('not a possible phone number in SE') },
    ]);
    expect(await namedCount(w)).toBe(0);
  });

  it("answers 404 for a header naming another company's location, 403 for one the key may not act on", async () => {
    const foreign = await call('POST', '/api/v1/users/guests', {
      key: admin(),
      headers: at(company(2).locations[0]!.locationId),
      body: { name: 'X', phone: '070-123 45 67' },
    });
    expect(foreign.status).toBe(404);
    const limited = await testKey(1, {
      permissions: ['bookings.create'],
      locationIds: [company(1).locations[0]!.locationId],
    });
    const refused = await call('POST', '/api/v1/users/guests', {
      key: limited,
      headers: at(swedish.id),
      body: { name: 'X', phone: '070-123 45 67' },
    });
    expect(refused.status).toBe(403);
  });
});

describe('guests behind read permission and location limits', () => {
  let here: Place;
  let there: Place;
  beforeAll(async () => {
    [here, there] = [await newPlace({}, 1), await newPlace({}, 1)];
  });
  /** A booking of the guest at the place (its history there), each on a day of its own so that the one table is free. */
  let day = 10;
  const visit = (place: Place, guestId: number) =>
    book(place, { primaryUserId: guestId, bookingDate: dayAhead(day++) });

  it('answers a repeat with the existing id only, to a caller without bookings.read', async () => {
    const w = word();
    const number = phone();
    const first = (await create({ name: `Private ${w}`, email: `${w}@example.com`, phone: number })).body.data;
    const createOnly = await testKey(1, { permissions: ['bookings.create'] });
    for (const body of [
      { email: `${w}@example.com` },
      { phone: number },
      { name: 'Probe', email: `${w}@EXAMPLE.com` },
    ]) {
      const out = await create(body, createOnly);
      expect(out.status).toBe(200);
      expect(out.body.data).toEqual({ id: first.id });
    }
    // A new guest is its own: the creator gets it whole.
    const fresh = await create({ email: `new.${w}@example.com` }, createOnly);
    expect(fresh.body.data).toMatchObject({ email: `new.${w.toLowerCase()}@example.com`, name: null });
    // The stored guest did not change.
    expect((await search(`q=${w}`)).body.data.find((g: { id: number }) => g.id === first.id)).toEqual(first);
  });

  it('answers the whole guest to a location-limited key only when the guest has history at its locations', async () => {
    const w = word();
    const g = (await create({ name: `Regular ${w}`, email: `${w}@example.com` })).body.data;
    const key = await testKey(1, { permissions: ['bookings.create', 'bookings.read'], locationIds: [here.id] });
    expect((await create({ email: `${w}@example.com` }, key)).body.data).toEqual({ id: g.id });
    await visit(there, g.id);
    expect((await create({ email: `${w}@example.com` }, key)).body.data).toEqual({ id: g.id });
    await visit(here, g.id);
    expect((await create({ email: `${w}@example.com` }, key)).body.data).toEqual(g);
  });

  it('lets a location-limited key find only guests with history at its locations', async () => {
    const w = word();
    const [regular, elsewhere, unknown] = await Promise.all(
      ['Regular', 'Elsewhere', 'Unknown'].map(
        async (n) => (await create({ name: `${n} ${w}`, phone: phone() })).body.data,
      ),
    );
    await visit(here, regular.id);
    await visit(there, elsewhere.id);
    const key = await testKey(1, { permissions: ['bookings.read'], locationIds: [here.id] });
    expect(ids(await search(`q=${w}&limit=50`, key))).toEqual([regular.id]);
    expect(ids(await search(`q=${w}&locationId=${here.id}&limit=50`, key))).toEqual([regular.id]);
    for (const g of [elsewhere, unknown]) {
      expect(ids(await search(`q=${encodeURIComponent(g.phone)}`, key))).toEqual([]);
      expect(ids(await search(`q=${encodeURIComponent(g.phone)}`))).toEqual([g.id]);
    }
    const both = await testKey(1, { permissions: ['bookings.read'], locationIds: [here.id, there.id] });
    expect(ids(await search(`q=${w}&limit=50`, both)).sort()).toEqual([regular.id, elsewhere.id].sort());
    expect(ids(await search(`q=${w}&limit=50`)).sort()).toEqual([regular.id, elsewhere.id, unknown.id].sort());
  });

  it('pages a location-limited search to the end, each visible guest once', async () => {
    const w = word();
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push((await create({ name: `Pager${i} ${w}`, email: `p${i}.${w}@example.com` })).body.data.id);
    for (const id of made.filter((_, i) => i % 2 === 0)) await visit(here, id);
    const key = await testKey(1, { permissions: ['bookings.read'], locationIds: [here.id] });
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { id: number }[]; meta: { pagination: { nextCursor: string | null } } } } =
        await search(`q=${w}&limit=1${cursor ? `&cursor=${cursor}` : ''}`, key);
      seen.push(...page.body.data.map((g) => g.id));
      cursor = page.body.meta.pagination.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(made.filter((_, i) => i % 2 === 0).sort());
  });
});
