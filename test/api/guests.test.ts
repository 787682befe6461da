/** Guest users over HTTP against the local stage: create with dedupe, search, permissions, tenancy. */
import { describe, expect, it } from 'vitest';
import { call, company } from '../support/http';
import { testKey } from '../support/stage-data';

const admin = () => company(1).keys.admin;
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
    const out = await create({ name: `  Åsa  ${surname} `, email: `${surname}@Example.COM`, phone: '0046 (70) 765-43-21' });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({
      status: 'success',
      data: { id: expect.any(Number), name: `Åsa ${surname}`, email: `${surname.toLowerCase()}@example.com`, phone: '+46707654321', createdAt: expect.stringMatching(/Z$/), updatedAt: expect.stringMatching(/Z$/) },
      meta: { requestId: expect.any(String) },
    });
    expect(out.body.data.id).toBeGreaterThanOrEqual(1000); // numeric, from the user id sequence
    const found = await search(`q=${surname}`);
    expect(found.body.data).toEqual([out.body.data]);
  });

  it('accepts a guest with only an email or only a phone', async () => {
    const a = word();
    const b = word();
    expect((await create({ name: a, email: `${a}@example.com` })).body.data).toMatchObject({ email: `${a.toLowerCase()}@example.com`, phone: null });
    expect((await create({ name: b, phone: '+44 7700 900 123' })).body.data).toMatchObject({ email: null, phone: '+447700900123' });
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
    const answers = await Promise.all(Array.from({ length: 6 }, () => create({ name: `Racer ${w}`, email: `${w}@example.com`, phone: number })));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(ids(await search(`q=${w}`))).toEqual([answers[0]!.body.data.id]);
  });

  it('answers the email\'s guest when email and phone belong to different guests', async () => {
    const w = word();
    const number = phone();
    const a = await create({ name: `A ${w}`, email: `${w}@example.com` });
    const b = await create({ name: `B ${w}`, phone: number });
    const both = await create({ name: `C ${w}`, email: `${w}@example.com`, phone: number });
    expect(both.body.data.id).toBe(a.body.data.id);
    expect(ids(await search(`q=${w}`)).sort()).toEqual([a.body.data.id, b.body.data.id].sort());
  });

  it.each([
    ['no name', { email: 'x@example.com' }, '/name'],
    ['an empty name', { name: '', email: 'x@example.com' }, '/name'],
    ['a blank name', { name: '   ', email: 'x@example.com' }, '/name'],
    ['a name of 201 characters', { name: 'a'.repeat(201), email: 'x@example.com' }, '/name'],
    ['a bad email', { name: 'X', email: 'not-an-email' }, '/email'],
    ['a phone without a country code', { name: 'X', phone: '070-123 45 67' }, '/phone'],
    ['a phone with letters', { name: 'X', phone: '+46 70 CALL ME' }, '/phone'],
    ['a phone of 7 digits', { name: 'X', phone: '+4670123' }, '/phone'],
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
    expect(out.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/email' }, { path: '/phone' }] });
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
    expect((await call('POST', '/api/v1/users/guests', { body: { name: 'X', email: 'x@example.com' } })).status).toBe(401);
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
    for (const first of ['Alma', 'Bo', 'Cleo']) made.push((await create({ name: `${first} ${w}`, email: `${first}.${w}@example.com` })).body.data.id);
    const one = await search(`q=${w}&limit=2`);
    expect(one.body.data).toHaveLength(2);
    expect(one.body.meta.pagination).toEqual({ page: 1, limit: 2, total: 2, totalPages: 2, nextCursor: expect.any(String) });
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
    expect(out.body.data).toEqual([{ ...g, bookingHistory: { locationId: location, bookingCount: 0, lastVisitAt: null, noShowCount: 0, cancellationCount: 0 } }]);
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

  it('never shows another company\'s guests, and answers 404 for its location', async () => {
    const w = word();
    const theirs = await create({ name: `Hidden ${w}`, email: `${w}@example.com`, phone: phone() }, theirAdmin());
    expect(theirs.status).toBe(200);
    for (const q of [w, `${w}@exa`, encodeURIComponent(theirs.body.data.phone)]) expect(ids(await search(`q=${q}`)), q).not.toContain(theirs.body.data.id);
    const foreign = await search(`q=${w}&locationId=${company(2).locations[0]!.locationId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
  });
});
