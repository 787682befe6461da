/**
 * Print jobs: those the booking lifecycle queues (a kitchen correction ticket when seating is
 * undone) and the terminal pre-checks (docs/printing.md), which print at a printer group and whose
 * printer agent reports them printed or failed:
 *
 *   print job   C#<cid> / PRINTJOB#<id>   gsi1 C#<cid>#L#<loc:12>#PRINTJOBS / <createdAt>#<id>
 *
 * Written inside the transaction of the change it reports; the printer queue reads a location's
 * jobs in order through gsi1.
 */
import { Type, type Static } from '../schemas/typebox';
import type { Alert } from './alerts';
import { newAlertSteps } from './alerts';
import type { DomainEvent } from '../events/catalog';
import { TerminalPrintJobView } from '../schemas/printing';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { outboxStep } from './outbox';
import { printerGroupEntity, terminalEntity } from './printing';
import { transact } from './transact';

/** A job the booking lifecycle queues (a kitchen correction ticket); internal, no operation shows it. */
const PrintJob = Type.Object({
  id: Type.String(),
  locationId: Type.Integer(),
  kind: Type.Literal('kitchen_correction'),
  status: Type.Literal('queued'),
  content: Type.Record(Type.String(), Type.Unknown()),
  createdAt: Type.String(),
});
export type PrintJob = Static<typeof PrintJob>;

const jobKey = (companyId: number, id: string) => companyKey(companyId, `PRINTJOB#${id}`);
const jobIndexes = (companyId: number, j: { locationId: number; createdAt: string; id: string }) => ({
  gsi1pk: `${keys.company(companyId)}#L#${keys.pad(j.locationId)}#PRINTJOBS`,
  gsi1sk: `${j.createdAt}#${j.id}`,
});

export const printJobEntity = defineEntity({
  name: 'PRINT_JOB',
  label: 'print job',
  key: jobKey,
  schema: PrintJob,
  keyOf: (companyId, j) => [companyId, j.id] as const,
  indexes: jobIndexes,
});

/**
 * A pre-check a terminal sent (docs/printing.md), for its printer group, as stored and shown (`error`: what the
 * printer agent reported when it failed, null otherwise; `alertId`: the alert its failure raised):
 * declared by TerminalPrintJobView.
 */
export type TerminalPrintJob = Static<typeof TerminalPrintJobView>;

const terminalJobEntity = defineEntity({
  name: 'PRINT_JOB',
  label: 'print job',
  key: jobKey,
  schema: TerminalPrintJobView,
  keyOf: (companyId, j) => [companyId, j.id] as const,
  indexes: jobIndexes,
});

export const terminalJobs = {
  get: terminalJobEntity.get,
  read: terminalJobEntity.read,

  /** Queues the job while its terminal and printer group exist (404 otherwise), with its event. */
  async create(companyId: number, j: TerminalPrintJob, event: DomainEvent): Promise<void> {
    await transact([
      terminalEntity.existsStep([companyId, j.terminalId]),
      printerGroupEntity.existsStep([companyId, j.printerGroupId]),
      terminalJobEntity.newItemStep(companyId, j),
      outboxStep(event),
    ]);
  },

  /** The agent's report: the job at its new status while still at the version read, with the alert of a failure. */
  async report(
    companyId: number,
    prev: TerminalPrintJob,
    next: TerminalPrintJob,
    event: DomainEvent,
    alert?: Alert,
  ): Promise<void> {
    await transact([
      terminalJobEntity.versionedPutStep(companyId, next, prev.version),
      ...(alert ? newAlertSteps(companyId, alert) : []),
      outboxStep(event),
    ]);
  },
};
