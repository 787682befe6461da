/**
 * `npm run test:bundles` global setup (docs/testing.md, "The bundles that deploy"):
 * 1. the synthesized assembly: `BUNDLES_CDK_OUT` when it names one (CI passes the folder of its
 *    own `cdk synth` of the dev stage), else `cdk synth -c stage=dev --quiet -o .cdk.out/dev`;
 * 2. DynamoDB Local and the table under the name the template's table maps to (HARNESS.tableName);
 * 3. the permission catalog, seeded by the catalog function's bundle invoked as its deploy trigger
 *    invokes it (no payload: `{}`);
 * 4. the identity provider's stand-in (a JWKS on loopback, and an operator's token signed with it);
 * 5. a local stage on the same table, over which the test builds its world (fixtures only: every
 *    answer the test judges comes from a bundle), with a door to await and stop its pipeline.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { ensureTable, startDynamoDbLocal } from '../../bin/local/dynamodb';
import type { DevKeys } from '../../bin/local/seed';
import { builtInPermissions } from '../../shared/auth/catalog';
import { AwsCallLog, recordSends } from '../support/aws-call-log';
import { pipelineDoor } from '../support/pipeline-door';
import { readAssembly, type BundledFunction } from './assembly';
import { CALL_LOG_DIR, environmentOf, HARNESS, loadFunction, standIns, type IdentityStandIn } from './runtime';

declare module 'vitest' {
  export interface ProvidedContext {
    devKeys: DevKeys;
    stageDatabase: { endpoint: string; tableName: string };
    jwtSecret: string;
    pipelineDoor: string;
    bundles: {
      cdkOut: string;
      dynamoEndpoint: string;
      identity: IdentityStandIn;
      /** A token of an internal operator, signed by the identity stand-in. */
      operatorToken: string;
      /** What the catalog bundle answered, and the catalog items the table then held. */
      catalog: { function: string; answer: unknown; items: number };
      synthSeconds: number | null;
    };
  }
}

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
export const OPERATOR_ID = '7001';

function assemblyFolder(): { dir: string; synthSeconds: number | null } {
  const given = process.env.BUNDLES_CDK_OUT;
  const dir = resolve(projectRoot, given || '.cdk.out/dev');
  // The bundles import @aws-sdk/* by name; an ES module finds it only in a node_modules above it.
  const inside = relative(projectRoot, dir);
  if (inside.startsWith('..') || isAbsolute(inside))
    throw new Error(
      `BUNDLES_CDK_OUT=${dir} is outside the project (${projectRoot}): its bundles could not resolve @aws-sdk/*`,
    );
  if (given) {
    if (!existsSync(join(dir, `${HARNESS.stackName}.template.json`)))
      throw new Error(
        `BUNDLES_CDK_OUT=${dir} holds no ${HARNESS.stackName}.template.json: synthesize the dev stage there first`,
      );
    return { dir, synthSeconds: null };
  }
  const started = performance.now();
  execFileSync('npx', ['cdk', 'synth', '-c', 'stage=dev', '--quiet', '-o', dir], {
    cwd: projectRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { dir, synthSeconds: (performance.now() - started) / 1000 };
}

async function identityStandIn(): Promise<{ identity: IdentityStandIn; operatorToken: string; server: Server }> {
  const { exportJWK, generateKeyPair, SignJWT } = await import('jose');
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bundles', alg: 'ES256', use: 'sig' };
  const server = createServer((req, res) => {
    if (req.url !== '/.well-known/jwks.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const identity: IdentityStandIn = {
    JWKS_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}/.well-known/jwks.json`,
    JWT_ISSUER: 'urn:brigade:bundles',
    JWT_AUDIENCE: 'urn:brigade:bundles:api',
    INTERNAL_OPERATOR_IDS: OPERATOR_ID,
  };
  const operatorToken = await new SignJWT({ cid: 1, perms: [...builtInPermissions] })
    .setProtectedHeader({ alg: 'ES256', kid: 'bundles' })
    .setSubject(OPERATOR_ID)
    .setIssuer(identity.JWT_ISSUER)
    .setAudience(identity.JWT_AUDIENCE)
    .setExpirationTime('2h')
    .sign(privateKey);
  return { identity, operatorToken, server };
}

export default async function setup(project: TestProject) {
  const { dir, synthSeconds } = assemblyFolder();
  const dynamo = await startDynamoDbLocal();
  const cleanups: (() => Promise<void> | void)[] = [() => dynamo.stop()];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c();
  };
  try {
    await ensureTable(dynamo.endpoint, HARNESS.tableName);
    const { identity, operatorToken, server: jwks } = await identityStandIn();
    cleanups.push(() => new Promise<void>((ok) => jwks.close(() => ok())));

    // The catalog, seeded by its own bundle, before anything else writes to the table.
    const assembly = readAssembly(dir, HARNESS.stackName, standIns);
    const seeder = assembly.functions.find(
      (f): f is BundledFunction => !('error' in f) && f.path.includes('/PermissionCatalogSeed/Handler/Function/'),
    );
    if (!seeder) throw new Error(`${dir}: no catalog seed function (PermissionCatalogSeed/Handler) in the templates`);
    const loaded = await loadFunction(seeder, environmentOf(seeder, dynamo.endpoint, identity));
    // Its AWS calls are recorded (the run's record starts here) and checked with the test's, at its end.
    rmSync(CALL_LOG_DIR, { recursive: true, force: true });
    mkdirSync(CALL_LOG_DIR, { recursive: true });
    const { DynamoDBClient, QueryCommand } = await import('@aws-sdk/client-dynamodb');
    const seedLog = AwsCallLog.in(CALL_LOG_DIR, 'setup');
    const stopRecording = recordSends([Object.getPrototypeOf(DynamoDBClient.prototype) as object], seedLog);
    const answer = await loaded.invoke({}).finally(() => {
      stopRecording();
      seedLog.stop();
    });
    const client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: HARNESS.region,
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    // The catalog's partition (shared/data/permissions.ts): its items and their key items.
    const items =
      (
        await client.send(
          new QueryCommand({
            TableName: HARNESS.tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': { S: 'PERMISSIONS' } },
            Select: 'COUNT',
          }),
        )
      ).Count ?? 0;
    client.destroy();

    // The fixtures' stage: same DynamoDB Local, same table; no sweep of its own (the sweeper bundle's job here).
    Object.assign(process.env, { TABLE_NAME: HARNESS.tableName, NO_SHOW_SWEEP_MS: String(24 * 3600_000) });
    const localDir = mkdtempSync(join(tmpdir(), 'brigade-bundles-'));
    cleanups.push(() => rmSync(localDir, { recursive: true, force: true }));
    const { startLocalStage } = await import('../../bin/local/stage');
    const stage = await startLocalStage({ port: 0, localDir, dynamo });
    cleanups.push(() => stage.stop());
    // The suite's door to the pipeline (`settled`), and `POST /stop` to stop it.
    const door = await pipelineDoor(stage.pipeline, { stop: true });
    cleanups.push(() => new Promise<void>((ok) => door.server.close(() => ok())));

    project.provide('devKeys', stage.devKeys);
    project.provide('stageDatabase', { endpoint: stage.dynamoEndpoint, tableName: stage.tableName });
    project.provide('jwtSecret', process.env.JWT_SECRET!);
    project.provide('pipelineDoor', door.url);
    project.provide('bundles', {
      cdkOut: dir,
      dynamoEndpoint: dynamo.endpoint,
      identity,
      operatorToken,
      catalog: { function: seeder.name, answer, items },
      synthSeconds,
    });
  } catch (err) {
    await cleanup();
    throw err;
  }
  return cleanup;
}
