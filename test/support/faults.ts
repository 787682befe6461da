/**
 * What the fault scenarios (test/faults/) share: a webhook receiver, a burst of writes that a fault
 * cuts in the middle, and the check that nothing was lost or half written.
 *
 * The burst creates guests (POST /api/v1/users/guests): one transaction writes the guest, its
 * search tokens, its contact items and its `guest.created` event (the outbox), so a guest is an
 * aggregate that is either whole or absent. Each request names a guest by a unique email; its answer
 * is recorded as acknowledged (200, with the id), refused (an error answer in the envelope), or
 * lost (no answer: the connection died with the stage).
 */
import { createServer, type Server } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { Changes } from './changes';
import { recordFault } from './fault-log';

/**
 * How soon before DynamoDB Local is killed an acknowledged transaction may still be lost (whole).
 * Measured here: lost only when the kill came within about 2 ms of DynamoDB Local's answer (never
 * at 4 ms or more, over some 3,000 transactions); the margin is for a loaded machine.
 */
const DYNAMODB_LOCAL_ACK_WINDOW_MS = 50;

/** One webhook request a receiver took: its webhook-id, and what it was about. */
export interface Arrival {
  webhookId: string;
  event: string;
  resourceId: string;
}

/** A loopback receiver that answers 200 to everything and keeps what it took. */
export class Receiver {
  readonly arrivals: Arrival[] = [];
  readonly changes = new Changes();
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        const json = JSON.parse(body) as { event: string; resourceId: string };
        this.arrivals.push({
          webhookId: String(req.headers['webhook-id']),
          event: json.event,
          resourceId: String(json.resourceId),
        });
        res.writeHead(200).end();
        this.changes.changed();
      });
    });
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hook`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((ok) => (this.server ? this.server.close(() => ok()) : ok()));
  }

  /** Distinct webhook-ids per resource, for one event type. */
  idsByResource(event: string): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const a of this.arrivals.filter((x) => x.event === event)) {
      out.set(a.resourceId, (out.get(a.resourceId) ?? new Set()).add(a.webhookId));
    }
    return out;
  }
}

export type Outcome =
  | { email: string; kind: 'acknowledged'; id: number; at: number }
  | { email: string; kind: 'refused'; status: number; code: string; retryAfter: string | null }
  | { email: string; kind: 'lost'; error: string };

export interface Burst {
  outcomes: Outcome[];
  acknowledged: () => Extract<Outcome, { kind: 'acknowledged' }>[];
  /** When the fault struck (performance.now(), like each acknowledgement's `at`). */
  faultAt: number;
}

/** Subscribes `url` to `guest.created` with the key; the stage must answer 200. */
export async function subscribeToGuests(baseUrl: string, key: string, url: string): Promise<void> {
  const res = await fetch(`${baseUrl}/api/v1/webhooks/subscriptions`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url, events: ['guest.created'] }),
  });
  expect(res.status).toBe(200);
}

/** One guest creation and its outcome (an acknowledgement carries when it arrived, performance.now()). */
export async function createGuest(baseUrl: string, key: string, email: string, name = 'Burst Guest'): Promise<Outcome> {
  try {
    const res = await fetch(`${baseUrl}/api/v1/users/guests`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, email }),
    });
    const body = (await res.json()) as { data?: { id: number }; error?: { code: string } };
    if (res.status === 200 && body.data)
      return { email, kind: 'acknowledged', id: body.data.id, at: performance.now() };
    return {
      email,
      kind: 'refused',
      status: res.status,
      code: body.error?.code ?? '(no envelope)',
      retryAfter: res.headers.get('retry-after'),
    };
  } catch (err) {
    return { email, kind: 'lost', error: String((err as Error).cause ?? err) };
  }
}

/**
 * Sends `total` guest creations, `concurrency` at a time, and calls `fault` once `faultAfter` of them
 * are acknowledged (the rest are then in flight or still to come). Resolves when every request has
 * its outcome. `baseUrl()` is read per request, so a burst may outlive a stage.
 */
export async function burstOfGuests(options: {
  baseUrl: () => string;
  key: string;
  tag: string;
  total: number;
  concurrency: number;
  faultAfter: number;
  fault: () => Promise<void>;
}): Promise<Burst> {
  const outcomes: Outcome[] = [];
  const acknowledged = () =>
    outcomes.filter((o): o is Extract<Outcome, { kind: 'acknowledged' }> => o.kind === 'acknowledged');
  let next = 0;
  let faulted: Promise<void> | undefined;
  let faultAt = Number.NaN;
  const worker = async () => {
    while (next < options.total) {
      const email = `burst-${options.tag}-${next++}@faults.example`;
      outcomes.push(await createGuest(options.baseUrl(), options.key, email));
      if (!faulted && acknowledged().length >= options.faultAfter) {
        faultAt = performance.now();
        faulted = options.fault();
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  await faulted;
  return { outcomes, acknowledged, faultAt };
}

/** A document client on a DynamoDB Local endpoint, for reading what was stored, strongly consistent. */
function tableReader(endpoint: string, tableName: string) {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  const query = async (pk: string, prefix: string) => {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
          ExpressionAttributeValues: { ':pk': pk, ':p': prefix },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  };
  return { query, destroy: () => client.destroy() };
}

/**
 * The burst's guests as stored in the company's partition (layout: shared/data/guests.ts): for each
 * guest of the burst (found by its email contact item), whether its guest item, its contact item and
 * its search tokens are all there; and guests whose parts exist without the contact (none may).
 */
async function storedGuests(reader: ReturnType<typeof tableReader>, companyId: number, tag: string) {
  const pk = `C#${companyId}`;
  const allContacts = await reader.query(pk, 'GUESTCONTACT#');
  const contacts = allContacts.filter((c) => String(c.sk).startsWith(`GUESTCONTACT#E#burst-${tag}-`));
  const guestItems = await reader.query(pk, 'GUEST#');
  const byGuest = new Map<string, Record<string, unknown>[]>();
  for (const item of guestItems) {
    const id = String(item.sk).split('#')[1]!;
    byGuest.set(id, [...(byGuest.get(id) ?? []), item]);
  }
  const idOf = (contact: Record<string, unknown>) => String(contact.guestId ?? contact.id);
  const owned = new Set(allContacts.map((c) => idOf(c).padStart(12, '0')));
  const orphans = [...byGuest.keys()].filter((id) => !owned.has(id)).map(Number);
  const guests = contacts.map((c) => {
    const parts = byGuest.get(String(idOf(c)).padStart(12, '0')) ?? [];
    return {
      email: String(c.sk).slice('GUESTCONTACT#E#'.length),
      id: Number(idOf(c)),
      hasGuest: parts.some((p) => String(p.sk).split('#').length === 2),
      tokens: parts.filter((p) => String(p.sk).includes('#T#')).length,
    };
  });
  return Object.assign(guests, { orphans });
}

/**
 * Nothing lost, nothing half written, every event once: every acknowledged guest is stored whole;
 * every stored guest of the burst is whole (guest item, contact, search tokens); the receiver took
 * exactly one webhook-id for the `guest.created` of each stored guest of the burst, and none for a
 * guest that is not stored. Returns the counts for the closing report.
 */
function expectNothingLost(burst: Burst, stored: Awaited<ReturnType<typeof storedGuests>>, receiver: Receiver) {
  const storedByEmail = new Map(stored.map((g) => [g.email, g]));
  const unstored = burst
    .acknowledged()
    .filter((ack) => storedByEmail.get(ack.email)?.id !== ack.id || !storedByEmail.get(ack.email)?.hasGuest);
  // DynamoDB Local's own window (docs/testing.md, "Faults"): when its JVM is killed, a transaction it
  // answered in the last moments before may be missing, whole. Only such a write is let off, and
  // only when nothing of it is stored and no event of it was delivered (checked below).
  const inWindow = (ack: (typeof unstored)[number]) => burst.faultAt - ack.at < DYNAMODB_LOCAL_ACK_WINDOW_MS;
  const missing = unstored.filter((ack) => !inWindow(ack));
  expect(
    missing.map((m) => `${m.email} (${m.id}, ${(burst.faultAt - m.at).toFixed(1)} ms before the fault)`),
    `acknowledged, not stored (of ${burst.acknowledged().length} acknowledged, ${stored.length} stored)`,
  ).toEqual([]);
  const excused = unstored.filter(inWindow);
  for (const ack of excused) {
    expect(stored.orphans, `nothing of ${ack.email} (${ack.id}) is stored`).not.toContain(ack.id);
    expect(receiver.idsByResource('guest.created').has(String(ack.id)), `no event of ${ack.email} (${ack.id})`).toBe(
      false,
    );
  }
  expect(stored.orphans, 'guest items without their contact').toEqual([]);
  for (const g of stored)
    expect(g, `${g.email} is whole`).toMatchObject({ hasGuest: true, tokens: expect.any(Number) });
  for (const g of stored) expect(g.tokens, `${g.email} has its search tokens`).toBeGreaterThan(0);
  const delivered = receiver.idsByResource('guest.created');
  const burstIds = new Set(stored.map((g) => String(g.id)));
  const deliveredOfBurst = [...delivered.entries()].filter(([id]) => burstIds.has(id));
  expect(new Set(deliveredOfBurst.map(([id]) => id)), 'a delivery for each stored guest').toEqual(burstIds);
  for (const [id, webhookIds] of deliveredOfBurst)
    expect([...webhookIds], `guest ${id}: one webhook-id`).toHaveLength(1);
  // An event for a guest the burst made but the table does not hold would be a delivery of an unwritten write.
  const emails = new Set(burst.outcomes.map((o) => o.email));
  expect(stored.every((g) => emails.has(g.email))).toBe(true);
  return {
    lostToDynamoDbLocal: excused.length,
    sent: burst.outcomes.length,
    acknowledged: burst.acknowledged().length,
    refused: burst.outcomes.filter((o) => o.kind === 'refused').length,
    lost: burst.outcomes.filter((o) => o.kind === 'lost').length,
    stored: stored.length,
    delivered: deliveredOfBurst.length,
    arrivals: receiver.arrivals.filter((a) => a.event === 'guest.created' && burstIds.has(a.resourceId)).length,
  };
}

/**
 * The end of a killing scenario, once the pipeline has drained: the burst's guests (and `after`, a
 * write acknowledged once the fault was over) read back from the table at `endpoint`, checked by
 * `expectNothingLost`, and the counts recorded for the summary (test/support/fault-log.ts).
 */
export async function expectNothingLostAfter(options: {
  file: string;
  scenario: string;
  endpoint: string;
  tableName: string;
  companyId: number;
  tag: string;
  burst: Burst;
  after: Outcome;
  receiver: Receiver;
}): Promise<void> {
  const reader = tableReader(options.endpoint, options.tableName);
  try {
    const stored = await storedGuests(reader, options.companyId, options.tag);
    const burst = { ...options.burst, outcomes: [...options.burst.outcomes, options.after] };
    recordFault(options.file, options.scenario, expectNothingLost(burst, stored, options.receiver));
  } finally {
    reader.destroy();
  }
}
