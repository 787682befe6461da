/**
 * Starts the whole service on one machine (docs/decisions.md, “The local stage”): DynamoDB Local, the table, the seed,
 * `.local/dev-keys.json`, the HTTP server for every route and the webhook pipeline. `npm start` and the
 * API tests use it.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { localTokenBinding, resetConfig } from '../../shared/config';
import { setDb } from '../../shared/data/client';
import { releaseIdBlocks } from '../../shared/data/ids';
import { holdReadiness, releaseReadiness } from '../../shared/domain/serving';
import { ensureTable, startDynamoDbLocal, type DynamoDbLocal } from './dynamodb';
import { asFunction } from './function-scope';
import type { LocalPipeline } from './pipeline';
import { LOCAL_OPERATOR_ID, isSeeded, seed, type DevKeys } from './seed';

export interface LocalStageOptions {
  /** HTTP port; 0 picks a free one. */
  port: number;
  host?: string;
  /** Keep DynamoDB Local's data here across starts; in memory when absent. */
  dataDir?: string | undefined;
  /** Where dev-keys.json and the local JWT secret live. */
  localDir: string;
  /**
   * A DynamoDB Local already running, which the stage uses (and does not stop) instead of starting
   * its own: the fault tests stop and restart it under a running stage. `dataDir` is then unused.
   */
  dynamo?: Pick<DynamoDbLocal, 'endpoint'>;
  /** Called once the server listens, before the seed: from then on /ready answers, 503 until the stage serves. */
  onListening?: (baseUrl: string) => void;
}

export interface LocalStage {
  baseUrl: string;
  /** DynamoDB Local's endpoint and the table (tests reach the data directly through these). */
  dynamoEndpoint: string;
  tableName: string;
  devKeys: DevKeys;
  devKeysPath: string;
  seeded: boolean;
  /** The webhook pipeline (stream reader and delivery worker); tests may stop and restart it. */
  pipeline: LocalPipeline;
  stop(): Promise<void>;
}

function localSecret(localDir: string): string {
  if (process.env.JWT_SECRET) return process.env.JWT_SECRET;
  const file = join(localDir, 'jwt-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/**
 * The local stage's API key pepper (shared/auth/verifier.ts), unless API_KEY_PEPPER names one: derived
 * from its one secret with HKDF under a label of its own, so the same file serves both and neither
 * key tells anything of the other. A new secret only costs each local key one bcrypt run again.
 */
const localPepper = (secret: string): string =>
  Buffer.from(hkdfSync('sha256', secret, '', 'brigade api-key verifier pepper', 32)).toString('base64url');

const listen = (server: Server, port: number, host: string) =>
  new Promise<number>((ok, fail) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      fail(
        err.code === 'EADDRINUSE'
          ? new Error(
              `port ${port} on ${host} is taken (another npm start?): stop that process, or choose another port: PORT=${port + 1} npm start`,
            )
          : err,
      ),
    );
    server.listen(port, host, () => ok((server.address() as { port: number }).port));
  });

export async function startLocalStage(options: LocalStageOptions): Promise<LocalStage> {
  // The server listens before the seed runs (dev-keys.json needs its URL): /ready answers 503 until
  // the stage is whole, its keys written last (docs/decisions.md, “Health”).
  holdReadiness('the local stage is starting: seeding, then writing its keys');
  const host = options.host ?? '127.0.0.1';
  const localDir = resolve(options.localDir);
  mkdirSync(localDir, { recursive: true });
  const jwtSecret = localSecret(localDir);
  const owned = options.dynamo ? undefined : await startDynamoDbLocal({ dataDir: options.dataDir });
  const dynamo = options.dynamo ?? owned!;

  let server: Server | undefined;
  let pipeline: LocalPipeline | undefined;
  let noShowSweep: NodeJS.Timeout | undefined;
  const stop = async () => {
    clearInterval(noShowSweep);
    await pipeline?.stop();
    if (server) await new Promise<void>((r) => server!.close(() => r()));
    setDb(undefined);
    await owned?.stop();
  };
  try {
    Object.assign(process.env, {
      STAGE: 'local',
      TABLE_NAME: process.env.TABLE_NAME ?? 'brigade-local',
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      JWT_SECRET: jwtSecret,
      API_KEY_PEPPER: process.env.API_KEY_PEPPER || localPepper(jwtSecret),
      // The local stage's own issuer and audience: its tokens are good nowhere else, and no other stage's here.
      JWT_ISSUER: localTokenBinding.issuer,
      JWT_AUDIENCE: localTokenBinding.audience,
      INTERNAL_OPERATOR_IDS: process.env.INTERNAL_OPERATOR_IDS ?? LOCAL_OPERATOR_ID,
    });
    resetConfig();
    setDb(undefined);
    releaseIdBlocks(); // blocks reserved from another database would repeat its ids here
    await ensureTable(dynamo.endpoint, process.env.TABLE_NAME!);

    // Handlers are imported only now, after the environment names the local endpoint.
    const { createLocalServer } = await import('./server');
    server = await createLocalServer();
    const port = await listen(server, options.port, host);
    const baseUrl = `http://${host}:${port}`;
    options.onListening?.(baseUrl);

    const devKeysPath = join(localDir, 'dev-keys.json');
    const alreadySeeded = await isSeeded();
    let devKeys: DevKeys;
    if (!alreadySeeded) {
      devKeys = await seed(baseUrl, jwtSecret);
    } else if (existsSync(devKeysPath)) {
      devKeys = { ...(JSON.parse(readFileSync(devKeysPath, 'utf8')) as DevKeys), baseUrl };
    } else {
      throw new Error(
        `${options.dataDir} holds seeded data but ${devKeysPath} is gone: its keys cannot be recovered; start with an empty DATA_DIR`,
      );
    }
    // The docs page's "try it" works out of the box here with company 1's admin key (shared/config.ts `docsTryItKey`; local only).
    process.env.DOCS_TRY_IT_KEY = devKeys.companies[0]!.keys.admin;
    resetConfig();

    const { LocalPipeline } = await import('./pipeline');
    pipeline = new LocalPipeline({ endpoint: dynamo.endpoint, tableName: process.env.TABLE_NAME! });
    await pipeline.start();
    // What the deployed schedule does every 5 minutes (infra/no-show-sweeper.ts: no-shows, then lapsed waitlist offers), every NO_SHOW_SWEEP_MS here.
    const { watchedNoShowSweep } = await import('../../shared/domain/sweeps');
    const { sweepLapsedOffers } = await import('../../shared/domain/waitlist/operations');
    const sweep = () =>
      asFunction('no-show-sweeper', async () => (await watchedNoShowSweep(), await sweepLapsedOffers()));
    noShowSweep = setInterval(
      () => void sweep().catch((err) => console.error('local stage: no-show sweep failed', err)),
      Number(process.env.NO_SHOW_SWEEP_MS ?? 60_000),
    );
    noShowSweep.unref();
    // The keys file last: once it exists the stage serves whole, and /ready says so from then on.
    writeFileSync(devKeysPath, `${JSON.stringify(devKeys, null, 2)}\n`, { mode: 0o600 });
    releaseReadiness();
    return {
      baseUrl,
      dynamoEndpoint: dynamo.endpoint,
      tableName: process.env.TABLE_NAME!,
      devKeys,
      devKeysPath,
      seeded: !alreadySeeded,
      pipeline,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
