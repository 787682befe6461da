/**
 * §2 DynamoDB calls per operation: every route of the route table, one warm request each, with
 * the commands the handler sent counted by type and by purpose.
 */
import { clearKeyCache } from '../../shared/auth/authenticate';
import { rateLeases } from '../../shared/domain/rateLeases';
import { routes, type Route } from '../../shared/routes';
import { budgetClass, fixtures, type BudgetClass, type Fixture } from '../fixtures';
import { describeResponse, isOk, type Harness } from '../lib/harness';
import { mark, table, type Verdict } from '../lib/md';
import type { SentCall } from '../lib/mockDb';
import { sample } from '../lib/sample';

export interface CallsRow {
  route: Route;
  kind: BudgetClass;
  fixture: 'fixture' | 'missing';
  status: string;
  rate: number;
  counter: number;
  auth: number;
  data: Record<string, number>;
  coldAuth: number;
  budget: string;
  verdict: Verdict;
  why: string;
}

const BUDGET_TEXT: Record<BudgetClass, string> = {
  read: '1 read (GetItem, or one BatchGetItem) + at most 1 rate-window lease',
  write: '1 TransactWriteItems + at most 1 rate-window lease',
  update: '1 read round trip (GetItem, or one BatchGetItem) + 1 TransactWriteItems + at most 1 rate-window lease',
  'by-code':
    "1 GetItem (the code lookup, which carries the booking) + at most 1 Query and 1 TransactWriteItems + at most 1 rate-window lease, and a place in the client's budget of failed lookups held and given back on a hit (2 updates)",
  list: '1 Query per page + at most 1 rate-window lease (counter shown apart)',
  probe: 'none (listed only)',
  floor:
    '1 round trip: 1 GetItem or BatchGetItem (location, settings, …) sent with 1 Query of the tables, 1 of the bookings and 1 of the waitlist offers around the date + at most 1 rate-window lease',
  availability:
    "1 round trip, the layout kept from the cold call (docs/availability.md, “The layout cache”): 1 GetItem of the location's layout token sent with 1 Query of the bookings' buckets and 1 of the waitlist offers around the date + at most 1 rate-window lease",
  log: "1 GetItem of the company's record of its log's locations, the locations' list (1 Query), and 1 Query per partition of the log (its locations', 8 shards, the log as it was before), 16 at a time + at most 1 rate-window lease",
  range:
    "1 round trip: 1 GetItem or BatchGetItem (location, settings) sent with 1 Query of the range's day items (1 per 1 MB page) + at most 1 rate-window lease",
};

/** Inputs sampled from the route's schemas, empty answers: only for routes without a fixture. */
function sampledFixture(route: Route): Fixture {
  const s = route.schemas as { body?: object; query?: object; path?: object };
  return {
    event: {
      ...(s.path ? { pathParameters: sample(s.path as never, true) as Record<string, string> } : {}),
      ...(s.query ? { queryStringParameters: sample(s.query as never, true) as Record<string, string> } : {}),
      ...(s.body ? { body: sample(s.body as never) } : {}),
    },
  };
}

function tally(calls: SentCall[]) {
  const data: Record<string, number> = {};
  for (const c of calls) if (c.role === 'data') data[c.op] = (data[c.op] ?? 0) + 1;
  const n = (role: SentCall['role']) => calls.filter((c) => c.role === role).length;
  return { rate: n('rate'), counter: n('counter'), auth: n('auth'), data };
}

/**
 * Rate-window updates a request may send: its window's lease; a public lookup by code also holds a
 * place in its client's budget of failed lookups and gives it back on a hit (shared/http/chain/rateWindow.ts).
 */
const rateAllowance = (kind: BudgetClass) => (kind === 'by-code' ? 3 : 1);

function judge(kind: BudgetClass, t: ReturnType<typeof tally>, pages: number): { ok: boolean | null; why: string } {
  const total = Object.values(t.data).reduce((a, b) => a + b, 0);
  // One read round trip: a GetItem, or one BatchGetItem of several items (of any families).
  const reads = (t.data.GetItem ?? 0) + (t.data.BatchGetItem ?? 0);
  const why: string[] = [];
  if (t.auth > 0) why.push(`${t.auth} API key lookup(s) on a warm call: the key cache did not hold`);
  switch (kind) {
    case 'probe':
      return { ok: null, why: why.join('; ') };
    case 'read':
      if (reads !== 1 || total !== 1)
        why.push(`expected 1 read (GetItem or BatchGetItem), got ${JSON.stringify(t.data)}`);
      break;
    case 'write':
      if (t.data.TransactWriteItems !== 1 || total !== 1) {
        const extra = Object.entries(t.data)
          .filter(([op]) => op !== 'TransactWriteItems')
          .map(([op, n]) => `${n} ${op}`);
        why.push(
          t.data.TransactWriteItems === 1
            ? `1 TransactWriteItems plus ${extra.join(', ')}${t.data.GetItem ? ' (read before write)' : ''}`
            : `expected 1 TransactWriteItems, got ${JSON.stringify(t.data)}`,
        );
      }
      break;
    case 'by-code': {
      const { GetItem = 0, Query = 0, TransactWriteItems = 0 } = t.data;
      if (GetItem !== 1 || Query > 1 || TransactWriteItems > 1 || total !== GetItem + Query + TransactWriteItems) {
        why.push(
          `expected the code lookup (1 GetItem), at most 1 Query and 1 TransactWriteItems, got ${JSON.stringify(t.data)}`,
        );
      }
      break;
    }
    case 'update':
      if (reads !== 1 || t.data.TransactWriteItems !== 1 || total !== 2)
        why.push(
          `expected 1 read round trip (GetItem or BatchGetItem) + 1 TransactWriteItems, got ${JSON.stringify(t.data)}`,
        );
      break;
    case 'floor':
      if (reads !== 1 || t.data.Query !== 3 || total !== 4)
        why.push(`expected 1 GetItem or BatchGetItem and 3 Queries, got ${JSON.stringify(t.data)}`);
      break;
    case 'availability':
      if (t.data.GetItem !== 1 || t.data.Query !== 2 || total !== 3)
        why.push(`expected 1 GetItem (the layout token) and 2 Queries, got ${JSON.stringify(t.data)}`);
      break;
    case 'range':
      if (reads !== 1 || t.data.Query !== pages || total !== 1 + pages)
        why.push(`expected 1 GetItem or BatchGetItem and ${pages} Query, got ${JSON.stringify(t.data)}`);
      break;
    case 'log': {
      const partitions = (t.data.Query ?? 0) - 1;
      if (reads !== 1 || total !== reads + (t.data.Query ?? 0) || partitions < 1)
        why.push(
          `expected 1 GetItem, the locations' Query and 1 Query per log partition, got ${JSON.stringify(t.data)}`,
        );
      break;
    }
    case 'list':
      if (t.data.Query !== pages || total !== pages)
        why.push(`expected ${pages} Query for ${pages} page(s), got ${JSON.stringify(t.data)}`);
      if (t.counter > 1) why.push(`${t.counter} counter reads`);
      break;
  }
  if (t.rate > rateAllowance(kind))
    why.push(`expected at most ${rateAllowance(kind)} rate-window update(s), got ${t.rate}`);
  return { ok: why.length === 0, why: why.join('; ') };
}

export async function dynamoCalls(h: Harness): Promise<CallsRow[]> {
  const rows: CallsRow[] = [];
  for (const route of routes as readonly Route[]) {
    const given = fixtures[route.operationId];
    const fixture = given ?? sampledFixture(route);
    const kind = budgetClass(route, given);
    const base = {
      route,
      kind,
      fixture: given ? ('fixture' as const) : ('missing' as const),
      budget: BUDGET_TEXT[kind],
    };
    try {
      const handler = await h.handler(route);
      h.db.use(fixture.responders ?? {});
      // First call with an empty key cache (cold credential), then the measured warm call.
      clearKeyCache();
      h.db.resetHistory();
      await handler(h.event(route, fixture), h.context(route));
      const coldAuth = tally(h.db.calls()).auth;
      h.db.resetHistory();
      // A fresh container's count: the warm call leases its window's first block (most calls lease none).
      rateLeases.forget();
      const res = await handler(h.event(route, fixture), h.context(route));
      const t = tally(h.db.calls());
      h.db.resetHistory();
      const ok = isOk(res, fixture.expectStatus);
      const { ok: within, why } = judge(kind, t, fixture.pages ?? 1);
      let verdict: Verdict = within === null ? 'INFO' : within ? 'PASS' : 'FAIL';
      let reason = why;
      if (!ok) {
        verdict = 'ERROR';
        reason = `request failed (${describeResponse(res)})${why ? `; ${why}` : ''}`;
      }
      if (!given) {
        verdict = 'MISSING FIXTURE';
        reason = `no row in bench/fixtures.ts; sampled-input attempt answered ${describeResponse(res)}`;
      }
      rows.push({ ...base, status: describeResponse(res), ...t, coldAuth, verdict, why: reason });
    } catch (err) {
      rows.push({
        ...base,
        status: 'threw',
        rate: 0,
        counter: 0,
        auth: 0,
        data: {},
        coldAuth: 0,
        verdict: given ? 'ERROR' : 'MISSING FIXTURE',
        why: `${given ? '' : 'no row in bench/fixtures.ts; '}${(err as Error).message}`,
      });
    }
  }
  return rows;
}

/** Fixture rows that name no route (renamed or removed operations). */
export const staleFixtures = (): string[] => {
  const ids = new Set((routes as readonly Route[]).map((r) => r.operationId));
  return Object.keys(fixtures).filter((id) => !ids.has(id));
};

export function callsMarkdown(rows: CallsRow[]): string {
  const fmtData = (d: Record<string, number>) =>
    Object.entries(d).length
      ? Object.entries(d)
          .map(([op, n]) => `${n} ${op}`)
          .join(' + ')
      : '—';
  const body = table(
    [
      'Operation',
      'Route',
      'Class',
      'Rate-window lease (UpdateItem)',
      'Data calls',
      'Counter GetItem',
      'Warm total',
      'Key lookup on a cold key cache',
      'HTTP',
      'Budget',
      'Result',
      'Notes',
    ],
    rows.map((r) => [
      `\`${r.route.operationId}\``,
      `${r.route.method} ${r.route.path}`,
      r.kind,
      r.rate,
      fmtData(r.data),
      r.counter || (r.kind === 'list' ? 0 : '—'),
      r.rate + r.counter + r.auth + Object.values(r.data).reduce((a, b) => a + b, 0),
      r.coldAuth ? `+${r.coldAuth} GetItem` : '—',
      r.status,
      r.budget,
      mark(r.verdict),
      r.why,
    ]),
  );
  const stale = staleFixtures();
  return [
    body,
    '',
    `Routes in the table: ${rows.length}; with a fixture: ${rows.filter((r) => r.fixture === 'fixture').length}; missing a fixture: ${rows.filter((r) => r.fixture === 'missing').length}.`,
    stale.length ? `\n**Stale fixtures** (no such route): ${stale.map((s) => `\`${s}\``).join(', ')}.` : '',
  ].join('\n');
}
