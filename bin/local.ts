/**
 * `npm start`: the local stage. From the environment: PORT (default 3000), DATA_DIR (persist
 * DynamoDB Local's data; in memory when unset), LOCAL_DIR (where dev-keys.json goes; default
 * .local). Ctrl-C or SIGTERM stops DynamoDB Local too.
 */
import { startLocalStage } from './local/stage';

const started = performance.now();
const stage = await startLocalStage({
  port: Number(process.env.PORT ?? 3000),
  dataDir: process.env.DATA_DIR || undefined,
  localDir: process.env.LOCAL_DIR || '.local',
  onListening: (baseUrl) => console.log(`Listening at ${baseUrl}; seeding (/ready answers 503 until the stage serves)`),
}).catch((err: Error) => {
  // What went wrong, in one line (Java missing, the port taken, a DATA_DIR without its keys); README "Troubleshooting".
  console.error(`The local stage could not start: ${err.message}`);
  process.exit(1);
});
const admin = stage.devKeys.companies[0]!.keys.admin;
console.log(`Brigade local stage serving at ${stage.baseUrl} (ready in ${Math.round(performance.now() - started)} ms)`);
console.log(
  `Data: ${process.env.DATA_DIR ? `persisted in ${process.env.DATA_DIR}` : 'in memory'}${stage.seeded ? ', freshly seeded' : ''}`,
);
console.log(`Keys and operator token: ${stage.devKeysPath}`);
console.log(`Admin key (company 1): ${admin}`);
console.log(`Try: curl -H "X-API-Key: ${admin}" ${stage.baseUrl}/api/v1/coursings`);

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  await stage.stop();
  process.exit(0);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(signal));
