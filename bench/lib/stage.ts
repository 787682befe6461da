/**
 * A local stage for the sections that measure over HTTP (§6, §10): started in this process on a
 * free port with its own in-memory DynamoDB Local and seed, with the no-show sweep and the webhook
 * pipeline stopped (nothing but the measured requests talks to DynamoDB Local), a DocumentClient of
 * the bench's own on the same DynamoDB Local for the raw calls, and a recorder of the commands the
 * stage's handlers send. The environment the stage sets is put back afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startLocalStage } from '../../bin/local/stage';
import { resetConfig } from '../../shared/config';
import { db } from '../../shared/data/client';

export interface SentCommand {
  name: string;
  input: Record<string, unknown>;
}

export interface BenchStage {
  baseUrl: string;
  /** Company 1's admin key: the unlimited tier, so the rate window never refuses during a run. */
  adminKey: string;
  locationId: number;
  raw: DynamoDBDocumentClient;
  /** The commands the stage's document client sent while `run` ran, in order. */
  record(run: () => Promise<unknown>): Promise<SentCommand[]>;
}

const STAGE_ENV = [
  'STAGE',
  'TABLE_NAME',
  'DYNAMODB_ENDPOINT',
  'JWT_SECRET',
  'API_KEY_PEPPER',
  'INTERNAL_OPERATOR_IDS',
  'NO_SHOW_SWEEP_MS',
] as const;

export async function withBenchStage<T>(name: string, measure: (stage: BenchStage) => Promise<T>): Promise<T> {
  const savedEnv = Object.fromEntries(STAGE_ENV.map((k) => [k, process.env[k]]));
  const localDir = mkdtempSync(join(tmpdir(), `brigade-bench-${name}-`));
  process.env.NO_SHOW_SWEEP_MS = String(24 * 3600_000);
  const stage = await startLocalStage({ port: 0, localDir });
  await stage.pipeline.stop();
  const raw = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: stage.dynamoEndpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  const sent: SentCommand[] = [];
  let recording = false;
  db().middlewareStack.add(
    (next, context) => (args) => {
      if (recording)
        sent.push({ name: String(context.commandName), input: structuredClone(args.input as Record<string, unknown>) });
      return next(args);
    },
    { step: 'initialize', name: `bench-${name}-record` },
  );
  const company = stage.devKeys.companies[0]!;
  try {
    return await measure({
      baseUrl: stage.baseUrl,
      adminKey: company.keys.admin,
      locationId: company.locations[0]!.locationId,
      raw,
      async record(run) {
        sent.length = 0;
        recording = true;
        try {
          await run();
        } finally {
          recording = false;
        }
        return [...sent];
      },
    });
  } finally {
    raw.destroy();
    await stage.stop();
    rmSync(localDir, { recursive: true, force: true });
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetConfig();
  }
}

/** The one command of the given type among those a request sent; throws unless there is exactly one. */
export function theOne(sent: readonly SentCommand[], name: string, what: string): Record<string, unknown> {
  const found = sent.filter((s) => s.name === name);
  if (found.length !== 1)
    throw new Error(`${what} sent ${found.length} ${name} (commands: ${sent.map((s) => s.name).join(', ')})`);
  return found[0]!.input;
}
