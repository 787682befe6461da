/**
 * The write gate (shared/data/writeGate.ts): inside a request the data layer's writes wait for the
 * rate window's verdict and send nothing when it refuses; outside one they go straight on.
 */
import { DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config';
import { setDb } from '../../shared/data/client';
import { nextId, releaseIdBlocks } from '../../shared/data/ids';
import { transact, type Step } from '../../shared/data/transact';
import { gateWrites } from '../../shared/data/writeGate';
import { rateLimited } from '../../shared/errors';

process.env.STAGE = 'local';
process.env.TABLE_NAME = 'unit';
resetConfig();
setDb(undefined);
const ddb = mockClient(DynamoDBDocumentClient);

const steps: Step[] = [{ item: { Put: { TableName: 'unit', Item: { pk: 'P', sk: 'S' } } } }];

function verdict() {
  let allow!: () => void;
  let refuse!: (err: unknown) => void;
  const promise = new Promise<void>((ok, fail) => {
    allow = ok;
    refuse = fail;
  });
  return { promise, allow, refuse };
}

beforeEach(() => {
  ddb.reset();
  ddb.on(TransactWriteCommand).resolves({});
  let counter = 0;
  ddb.on(UpdateCommand).callsFake(async () => ({ Attributes: { v: (counter += 10) } }));
  releaseIdBlocks();
});

describe('the write gate', () => {
  it('is open outside a request', async () => {
    await transact(steps);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it("holds a request's write until the window allows it", async () => {
    const v = verdict();
    const written = gateWrites(v.promise, () => transact(steps));
    await Promise.resolve();
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    v.allow();
    await written;
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('sends nothing when the window refuses, and throws the refusal', async () => {
    const v = verdict();
    const written = gateWrites(v.promise, () => transact(steps));
    v.refuse(rateLimited(60));
    await expect(written).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it("keeps one request's refusal out of an id reservation another request shares", async () => {
    const refused = verdict();
    const allowed = verdict();
    const first = gateWrites(refused.promise, () => nextId('role'));
    const second = gateWrites(allowed.promise, () => nextId('role')); // joins the first one's reservation
    allowed.allow();
    refused.refuse(rateLimited(60));
    await expect(first).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(await second).toBe(1);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
  });
});
