/**
 * Replacing a schedule's rules racing an added rule: both are one versioned write of the
 * schedule, so whatever the timing the end state is one a serial order of the requests that
 * succeeded implies — the whole new set (replace won, or the add came first and was replaced), the
 * whole old set plus the added rule (the add won), or the new set plus the added rule (both, the
 * replace first) — never a mix of old and new rules. The loser answers 409 in the error envelope
 * and leaves no event. The file acts as a company of its own.
 */
import { describe, expect, it } from 'vitest';
import { call, type Answer } from '../support/http';
import { admin, newLocation, useOwnCompany } from './setup-helpers';
import type { Schemas } from '../support/client';

useOwnCompany('Schedule races company');

const ROUNDS = 16;
/** Many rounds of several requests each: on a loaded machine that outlasts the suite's 60 s. */
const RACE_TIMEOUT_MS = 240_000;

const weekly = (weekday: number) => ({ ruleType: 'weekly', weekday });

/** The events of one type since `since` (a round makes at most one of each type: 16 rounds fit a page). */
async function eventsOfType(type: string, since: string): Promise<Schemas['LoggedEvent'][]> {
  const out = await call('GET', `/api/v1/events?type=${type}&since=${since}&limit=100`, { key: admin() });
  expect(out.status).toBe(200);
  expect(out.body.meta.pagination.nextCursor).toBeNull();
  return out.body.data;
}

function expectConflict(a: Answer): void {
  expect(a.status, JSON.stringify(a.body)).toBe(409);
  expect(a.body).toMatchObject({
    status: 'error',
    error: { code: 'CONFLICT', message: expect.any(String) },
    meta: { requestId: expect.any(String) },
  });
}

describe('replace rules racing an added rule', () => {
  it(
    `leaves the whole new set, or the old set plus the added rule, never a mix (${ROUNDS} rounds)`,
    async () => {
      const since = new Date().toISOString();
      const locationId = (await newLocation('Schedule race bistro')).id;
      const outcomes = { replaceOnly: 0, addOnly: 0, addThenReplace: 0, replaceThenAdd: 0 };
      const rounds: { id: number; replace: Answer; add: Answer }[] = [];

      for (let round = 0; round < ROUNDS; round++) {
        const created = await call('POST', '/api/v1/schedules', {
          key: admin(),
          body: { locationId, entityType: 'menu_layout', entityId: `race-${round}`, name: 'Race', rules: [weekly(1)] },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        const s = created.body.data;
        const replace = () =>
          call('PUT', `/api/v1/schedules/${s.id}/rules`, { key: admin(), body: { rules: [weekly(2), weekly(3)] } });
        const add = () => call('POST', `/api/v1/schedules/${s.id}/rules`, { key: admin(), body: weekly(4) });
        const [replaced, added] =
          round % 2 === 0
            ? await Promise.all([replace(), add()])
            : await Promise.all([add(), replace()]).then(([a, r]) => [r, a] as const);
        expect(replaced.status === 200 || added.status === 200, 'one of them wins').toBe(true);

        const now = (await call('GET', `/api/v1/schedules/${s.id}`, { key: admin() })).body.data;
        const weekdays = now.rules.map((r: { weekday: number }) => r.weekday);
        const ids = now.rules.map((r: { id: number }) => r.id);
        if (replaced.status === 200 && added.status !== 200) {
          expectConflict(added);
          expect(weekdays).toEqual([2, 3]);
          expect(now).toEqual(replaced.body.data);
          outcomes.replaceOnly++;
        } else if (added.status === 200 && replaced.status !== 200) {
          expectConflict(replaced);
          expect(weekdays).toEqual([1, 4]);
          expect(ids).toEqual([s.rules[0].id, added.body.data.id]);
          outcomes.addOnly++;
        } else if (weekdays.length === 2) {
          // Both won: the add first, then the replacement took every rule, the added one too.
          expect(weekdays).toEqual([2, 3]);
          expect(now).toEqual(replaced.body.data);
          outcomes.addThenReplace++;
        } else {
          // Both won: the replacement first, then the rule added to the new set.
          expect(weekdays).toEqual([2, 3, 4]);
          expect(ids).toEqual([...replaced.body.data.rules.map((r: { id: number }) => r.id), added.body.data.id]);
          outcomes.replaceThenAdd++;
        }
        expect(now.version).toBe(1 + (replaced.status === 200 ? 1 : 0) + (added.status === 200 ? 1 : 0));
        rounds.push({ id: s.id, replace: replaced, add: added });
      }

      // The losers left no event; each winner exactly one.
      const [updates, additions] = [
        await eventsOfType('schedule.updated', since),
        await eventsOfType('schedule-rule.created', since),
      ];
      for (const r of rounds) {
        const replacedEvents = updates.filter((e) => e.resourceId === String(r.id));
        const addedEvents = additions.filter((e) => e.data.scheduleId === r.id);
        expect(replacedEvents).toHaveLength(r.replace.status === 200 ? 1 : 0);
        expect(addedEvents).toHaveLength(r.add.status === 200 ? 1 : 0);
        if (r.add.status === 200) expect(addedEvents[0]!.resourceId).toBe(String(r.add.body.data.id));
      }
      expect(Object.values(outcomes).reduce((a, b) => a + b, 0)).toBe(ROUNDS);
    },
    RACE_TIMEOUT_MS,
  );
});
