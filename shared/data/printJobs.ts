/**
 * Print jobs the booking lifecycle queues (a kitchen correction ticket when seating is undone):
 *
 *   print job   C#<cid> / PRINTJOB#<id>   gsi1 C#<cid>#L#<loc:12>#PRINTJOBS / <createdAt>#<id>
 *
 * Written inside the transaction of the change it reports; the printer queue reads a location's
 * jobs in order through gsi1.
 */
import { keys } from './keys';
import { tableName } from './client';
import type { Step } from './transact';

export interface PrintJob {
  id: string;
  locationId: number;
  kind: 'kitchen_correction';
  status: 'queued';
  content: Record<string, unknown>;
  createdAt: string;
}

export function printJobStep(companyId: number, job: PrintJob): Step {
  return {
    item: {
      Put: {
        TableName: tableName(),
        Item: {
          pk: keys.company(companyId),
          sk: `PRINTJOB#${job.id}`,
          gsi1pk: `${keys.company(companyId)}#L#${keys.pad(job.locationId)}#PRINTJOBS`,
          gsi1sk: `${job.createdAt}#${job.id}`,
          entity: 'PRINT_JOB',
          companyId,
          ...job,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}
