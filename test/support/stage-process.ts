/**
 * The local stage in a process of its own, for the fault scenario that kills it (test/faults/
 * stage-killed.test.ts): what `npm start` runs (bin/local.ts: startLocalStage with DATA_DIR and
 * LOCAL_DIR), plus a door for the test on stdin/stdout, since a killed process's pipeline cannot be
 * awaited in the test's own. It prints one JSON line when it serves ({ baseUrl, dynamoEndpoint,
 * tableName, devKeys }); to each line `drained` on stdin it answers `drained` once its webhook
 * pipeline has nothing left to do (LocalPipeline.drained).
 *
 * With AWS_CALL_LOG set (a file the test names), the stage's AWS calls are recorded there
 * (test/support/aws-call-log.ts) and checked against the roles after the scenarios
 * (test/faults/iam-check.test.ts).
 */
import { createInterface } from 'node:readline';
import { startLocalStage } from '../../bin/local/stage';
import { db } from '../../shared/data/client';
import { AwsCallLog, recordClient } from './aws-call-log';

const stage = await startLocalStage({
  port: 0,
  dataDir: process.env.DATA_DIR,
  localDir: process.env.LOCAL_DIR ?? '.local',
});
const { baseUrl, dynamoEndpoint, tableName, devKeys } = stage;
const calls = process.env.AWS_CALL_LOG ? new AwsCallLog(process.env.AWS_CALL_LOG) : undefined;
if (calls) recordClient(db(), calls);
process.stdout.write(`${JSON.stringify({ baseUrl, dynamoEndpoint, tableName, devKeys })}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'drained') {
    await stage.pipeline.drained();
    process.stdout.write('drained\n');
  }
}
await stage.stop(); // stdin closed: the test is done with this stage
calls?.stop();
