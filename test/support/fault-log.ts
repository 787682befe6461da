/**
 * Where a fault scenario (test/faults/) writes what its burst did, for the run's summary line
 * (test/support/summary-reporter.ts) and the closing notes: `.local/faults/<file>.json`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const faultsDir = new URL('../../.local/faults/', import.meta.url).pathname;

export interface FaultCounts {
  /** Acknowledged writes missing, whole, because DynamoDB Local's JVM died within its window (faults.ts). */
  lostToDynamoDbLocal: number;
  sent: number;
  acknowledged: number;
  refused: number;
  lost: number;
  stored: number;
  delivered: number;
  arrivals: number;
}

/** The record of the scenario file `file` (its import.meta.url or path). */
export const faultRecordOf = (file: string) =>
  `${faultsDir}${basename(file.startsWith('file:') ? fileURLToPath(file) : file).replace(/\.test\.ts$/, '')}.json`;

export function recordFault(file: string, scenario: string, counts: FaultCounts): void {
  mkdirSync(faultsDir, { recursive: true });
  writeFileSync(faultRecordOf(file), `${JSON.stringify({ scenario, ...counts }, null, 2)}\n`);
}
