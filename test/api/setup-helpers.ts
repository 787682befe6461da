/** What the setup API tests share: keys, fixtures made over HTTP, and the shape of refusals. */
import { afterAll, beforeAll, expect } from 'vitest';
import { answerOf, type Result } from '../support/client';
import { call, company, type Answer } from '../support/http';
import { freshCompany, testKey, type OwnCompany } from '../support/stage-data';

/**
 * The file's own company once `useOwnCompany` ran. API files share a worker's modules (the api
 * project does not isolate them), so it is cleared when the file that set it ends.
 */
let own: OwnCompany | undefined;

/**
 * Makes every helper of this module act as a company made for the calling test file alone (see
 * `freshCompany`): for files that count a collection of "their" company or check that nothing else
 * changed in it. Call it at the top of the file; company 1 stays the default otherwise.
 */
export function useOwnCompany(name: string): () => OwnCompany {
  beforeAll(async () => {
    own = await freshCompany(name);
  });
  afterAll(() => {
    own = undefined;
  });
  return () => own!;
}

/** The admin key of the company the file acts as: its own (`useOwnCompany`) or company 1. */
export const admin = () => own?.keys.admin ?? company(1).keys.admin;
/** Company 2's admin key and its location: the other side of the tenant wall. */
export const theirAdmin = () => company(2).keys.admin;
export const theirLocation = () => company(2).locations[0]!.locationId;
export const seededLocation = (i: 0 | 1) => company(1).locations[i]!;

/** A UUID v4 no resource has. */
export const unknownUuid = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';

export const weekHours = {
  monday: [
    { open: '11:00', close: '14:00' },
    { open: '17:00', close: '23:00' },
  ],
  friday: [{ open: '18:00', close: '02:00' }],
};

/** A fresh location of the file's company, so a test can change it freely. */
export async function newLocation(
  name = 'Test bistro',
  timezone = 'Europe/Stockholm',
): Promise<{ id: number; [field: string]: unknown }> {
  const out = await call('POST', '/api/v1/locations', {
    key: admin(),
    body: { name, timezone, operatingHours: weekHours },
  });
  expect(out.status).toBe(200);
  return out.body.data;
}

/** A table (2-4 guests unless `body` says otherwise) at a location of the file's company. */
export async function newTable(
  locationId: number,
  body: Record<string, unknown>,
): Promise<{ id: string; [field: string]: unknown }> {
  const out = await call('POST', `/api/v1/locations/${locationId}/tables`, {
    key: admin(),
    body: { minCapacity: 2, maxCapacity: 4, ...body },
  });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data;
}

/** The answer (of `call()` or of the typed client) is the contract's error; with `path`, its details name that field. */
export function expectRefused(refused: Answer | Result, status: number, code: string, path?: string): void {
  const answer = 'response' in refused ? answerOf(refused) : refused;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toMatchObject({ status: 'error', error: { code }, meta: { requestId: expect.any(String) } });
  if (path !== undefined) expect(answer.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
}

/** A key of the file's company holding only `permissions`, optionally limited to some locations. */
export const keyWith = (permissions: string[], locationIds?: number[]) =>
  testKey(own?.companyId ?? 1, { permissions, ...(locationIds ? { locationIds } : {}) });
