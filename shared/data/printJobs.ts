/**
 * Print jobs the booking lifecycle queues (a kitchen correction ticket when seating is undone):
 *
 *   print job   C#<cid> / PRINTJOB#<id>   gsi1 C#<cid>#L#<loc:12>#PRINTJOBS / <createdAt>#<id>
 *
 * Written inside the transaction of the change it reports; the printer queue reads a location's
 * jobs in order through gsi1.
 */
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';

export interface PrintJob {
  id: string;
  locationId: number;
  kind: 'kitchen_correction';
  status: 'queued';
  content: Record<string, unknown>;
  createdAt: string;
}

export const printJobEntity = defineEntity({
  name: 'PRINT_JOB',
  label: 'print job',
  key: (companyId: number, id: string) => companyKey(companyId, `PRINTJOB#${id}`),
  keyOf: (companyId, j: PrintJob) => [companyId, j.id] as const,
  fields: ['id', 'locationId', 'kind', 'status', 'content', 'createdAt'],
  indexes: (companyId, j) => ({ gsi1pk: `${keys.company(companyId)}#L#${keys.pad(j.locationId)}#PRINTJOBS`, gsi1sk: `${j.createdAt}#${j.id}` }),
});
