/**
 * Printing (docs/printing.md): printer groups, terminals, the terminal pre-check print job, its
 * preview, and the printer agent's report (a failed job raises an alert in the same transaction).
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/principal';
import { noRead, readTogether } from '../../data/batch';
import { locationEntity } from '../../data/locations';
import { terminalJobs, type TerminalPrintJob } from '../../data/printJobs';
import { printerGroups, terminals, type PrinterGroup, type Terminal } from '../../data/printing';
import { tabEntity, type Tab } from '../../data/tabs';
import { AppError, conflict, notFound, unprocessable, validationFailed } from '../../errors';
import { newEvent } from '../../events/catalog';
import type { Page } from '../../page';
import {
  DEFAULT_PRINTER_WIDTH,
  type CreatePrinterGroupBody,
  type ListPrinterGroupsQuery,
  type ListTerminalsQuery,
  type PutTerminalBody,
  type ReportPrintJobBody,
  type TerminalPreCheckBody,
  type UpdatePrinterGroupBody,
} from '../../schemas/printing';
import { assertLocationAllowed, listedAt, listLocation } from '../access';
import { newAlert } from '../alerts';
import { localDateTime } from '../bookings/time';
import { readBill } from '../tabs/purchases';
import { changedFields } from '../changes';
import { CONTROL_CHARACTERS, renderReceipt } from './receipt';

const PRINT_FAILED_ALERT_TYPE = 'print_job.failed';

/** 404 naming the field that named what is missing. */
const missing = (what: string, path: string) =>
  new AppError('NOT_FOUND', `${what} not found`, [{ path, message: 'not found' }]);

// ---------------------------------------------------------------------------------------------
// Printer groups

async function visibleGroup(principal: Principal, id: string): Promise<PrinterGroup> {
  const found = await printerGroups.get(principal.companyId, id);
  if (!found) throw notFound(`Printer group ${id}`);
  assertLocationAllowed(principal, found.locationId);
  return found;
}

export const getPrinterGroup = visibleGroup;

export async function listPrinterGroups(
  principal: Principal,
  query: ListPrinterGroupsQuery,
  headerLocation?: string,
): Promise<Page<PrinterGroup>> {
  const locationId = listLocation(principal, query.locationId, headerLocation);
  return listedAt(principal.companyId, locationId, await printerGroups.list(principal.companyId, locationId, query));
}

export async function createPrinterGroup(principal: Principal, input: CreatePrinterGroupBody): Promise<PrinterGroup> {
  assertLocationAllowed(principal, input.locationId);
  const now = new Date().toISOString();
  const group: PrinterGroup = {
    id: randomUUID(),
    locationId: input.locationId,
    name: input.name,
    width: input.width ?? DEFAULT_PRINTER_WIDTH,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await printerGroups.create(
    principal.companyId,
    group,
    newEvent(principal.companyId, 'printer-group.created', group.id, { ...group }),
  );
  return group;
}

/** Changes the name or width; the location is fixed (a group moves by being made anew). An update that changes nothing writes nothing. */
export async function updatePrinterGroup(
  principal: Principal,
  id: string,
  input: UpdatePrinterGroupBody,
): Promise<PrinterGroup> {
  const prev = await visibleGroup(principal, id);
  const next: PrinterGroup = { ...prev, ...input, version: prev.version + 1, updatedAt: new Date().toISOString() };
  const changes = changedFields(prev, next, ['name', 'width']);
  if (Object.keys(changes).length === 0) return prev;
  await printerGroups.update(
    principal.companyId,
    prev,
    next,
    newEvent(principal.companyId, 'printer-group.updated', id, { ...next }, changes),
  );
  return next;
}

/** Deletes the group (409 while a terminal names it); answers it as it was. Its jobs stay, no longer previewable. */
export async function deletePrinterGroup(principal: Principal, id: string): Promise<PrinterGroup> {
  const group = await visibleGroup(principal, id);
  await printerGroups.remove(
    principal.companyId,
    group,
    newEvent(principal.companyId, 'printer-group.deleted', id, { ...group }),
  );
  return group;
}

// ---------------------------------------------------------------------------------------------
// Terminals

async function visibleTerminal(principal: Principal, id: string): Promise<Terminal> {
  const found = await terminals.get(principal.companyId, id);
  if (!found) throw notFound(`Terminal ${id}`);
  assertLocationAllowed(principal, found.locationId);
  return found;
}

export const getTerminal = visibleTerminal;

export async function listTerminals(
  principal: Principal,
  query: ListTerminalsQuery,
  headerLocation?: string,
): Promise<Page<Terminal>> {
  const locationId = listLocation(principal, query.locationId, headerLocation);
  return listedAt(principal.companyId, locationId, await terminals.list(principal.companyId, locationId, query));
}

/**
 * Creates the terminal under the caller's id, or replaces it (every field: an absent
 * printerGroupId is none). Its printer group must be at its location (422 otherwise). A replace
 * that changes nothing writes nothing. A credential limited to some locations may neither move a
 * terminal to nor take one from a location it does not reach.
 */
export async function putTerminal(principal: Principal, id: string, input: PutTerminalBody): Promise<Terminal> {
  assertLocationAllowed(principal, input.locationId);
  const { companyId } = principal;
  const printerGroupId = input.printerGroupId ?? null;
  const { prev, group } = await readTogether({
    prev: terminals.read(companyId, id),
    group: printerGroupId ? printerGroups.read(companyId, printerGroupId) : noRead(undefined),
  });
  if (prev) assertLocationAllowed(principal, prev.locationId);
  if (printerGroupId && !group) throw missing(`Printer group ${printerGroupId}`, '/printerGroupId');
  if (group && group.locationId !== input.locationId) {
    throw unprocessable(`Printer group ${group.id} is at location ${group.locationId}, not ${input.locationId}`, [
      { path: '/printerGroupId', message: "must be a printer group of the terminal's location" },
    ]);
  }
  const now = new Date().toISOString();
  if (!prev) {
    const created: Terminal = {
      id,
      locationId: input.locationId,
      name: input.name,
      printerGroupId,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    await terminals.put(companyId, undefined, created, newEvent(companyId, 'terminal.created', id, { ...created }));
    return created;
  }
  const next: Terminal = {
    ...prev,
    locationId: input.locationId,
    name: input.name,
    printerGroupId,
    version: prev.version + 1,
    updatedAt: now,
  };
  const changes = changedFields(prev, next, ['locationId', 'name', 'printerGroupId']);
  if (Object.keys(changes).length === 0) return prev;
  await terminals.put(companyId, prev, next, newEvent(companyId, 'terminal.updated', id, { ...next }, changes));
  return next;
}

export async function deleteTerminal(principal: Principal, id: string): Promise<Terminal> {
  const terminal = await visibleTerminal(principal, id);
  await terminals.remove(
    principal.companyId,
    terminal,
    newEvent(principal.companyId, 'terminal.deleted', id, { ...terminal }),
  );
  return terminal;
}

// ---------------------------------------------------------------------------------------------
// Print jobs

/**
 * 400 naming each text of the content that holds a control character: the printer agent prints
 * the job's text, and ESC/POS commands (ESC p kicks the cash drawer) are control characters.
 */
function assertPrintableContent(content: TerminalPreCheckBody['content']): void {
  const texts = [
    { path: '/content/tableName', text: content.tableName },
    ...content.lineItems.flatMap((line, i) => [
      { path: `/content/lineItems/${i}/name`, text: line.name },
      ...line.modifications.map((m, j) => ({ path: `/content/lineItems/${i}/modifications/${j}/name`, text: m.name })),
    ]),
  ];
  const problems = texts
    .filter(({ text }) => new RegExp(CONTROL_CHARACTERS.source).test(text))
    .map(({ path }) => ({ path, message: 'must not contain control characters (printer commands)' }));
  if (problems.length) throw validationFailed('The print content holds control characters', problems);
}

/** Minor units as the receipt prints them (12345 → 123.45). */
const shownMoney = (minor: number) =>
  `${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`;

/**
 * A pre-check is the tab's bill before payment: its TOTAL must be the bill's total (every order
 * line not reversed, and the deposit on a booking's primary tab; docs/purchases.md, “The bill”).
 * 409 naming both, and what is due, otherwise: nothing is written.
 */
async function assertTotalIsBill(companyId: number, tab: Tab, totalAmount: number): Promise<void> {
  const { billCents } = await readBill(companyId, tab);
  if (totalAmount === billCents) return;
  const due = billCents - (tab.paidCents ?? 0);
  throw new AppError(
    'CONFLICT',
    `The pre-check's total ${shownMoney(totalAmount)} (${totalAmount}) is not the bill of tab ${tab.id}: ${shownMoney(billCents)} (${billCents}), of which ${shownMoney(due)} (${due}) is due`,
    [
      {
        path: '/content/totalAmount',
        message: `is ${totalAmount}; the tab's bill is ${billCents} (${due} due)`,
      },
    ],
  );
}

/**
 * Queues a pre-check (docs/printing.md) for the terminal's printer group: the terminal must be at the
 * location and name a group, the tab must be at the location (404 for a missing terminal or tab,
 * 422 for one elsewhere or a terminal without a group), and the stated total must be the tab's
 * bill (409). The job stores the content as sent.
 */
export async function terminalPreCheck(principal: Principal, input: TerminalPreCheckBody): Promise<TerminalPrintJob> {
  assertPrintableContent(input.content);
  assertLocationAllowed(principal, input.locationId);
  const { companyId } = principal;
  const { terminal, tab } = await readTogether({
    terminal: terminals.read(companyId, input.terminalId),
    tab: tabEntity.read(companyId, input.tabId),
  });
  if (!terminal) throw missing(`Terminal ${input.terminalId}`, '/terminalId');
  if (!tab) throw missing(`Tab ${input.tabId}`, '/tabId');
  const elsewhere = (what: string, path: string, at: number) =>
    unprocessable(`${what} is at location ${at}, not ${input.locationId}`, [
      { path, message: "must be at the body's location" },
    ]);
  if (terminal.locationId !== input.locationId)
    throw elsewhere(`Terminal ${terminal.id}`, '/terminalId', terminal.locationId);
  if (tab.locationId !== input.locationId) throw elsewhere(`Tab ${tab.id}`, '/tabId', tab.locationId);
  if (!terminal.printerGroupId)
    throw unprocessable(`Terminal ${terminal.id} has no printer group`, [
      { path: '/terminalId', message: 'names no printer group: PUT it with a printerGroupId' },
    ]);
  await assertTotalIsBill(companyId, tab, input.content.totalAmount);
  const now = new Date().toISOString();
  const job: TerminalPrintJob = {
    id: randomUUID(),
    locationId: input.locationId,
    kind: 'terminal_pre_check',
    status: 'queued',
    printerGroupId: terminal.printerGroupId,
    terminalId: terminal.id,
    tabId: tab.id,
    content: input.content,
    error: null,
    alertId: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await terminalJobs.create(companyId, job, newEvent(companyId, 'print-job.created', job.id, { ...job }));
  return job;
}

/** The job of the group, for a caller who may act on its location: 404 when either is missing or the job prints elsewhere. */
async function groupJob(principal: Principal, printerGroupId: string, jobId: string) {
  const { companyId } = principal;
  const { group, job } = await readTogether({
    group: printerGroups.read(companyId, printerGroupId),
    job: terminalJobs.read(companyId, jobId),
  });
  if (!group) throw notFound(`Printer group ${printerGroupId}`);
  if (!job || job.kind !== 'terminal_pre_check' || job.printerGroupId !== printerGroupId)
    throw notFound(`Print job ${jobId}`);
  assertLocationAllowed(principal, job.locationId);
  return { group, job };
}

export interface PrintJobPreview {
  jobId: string;
  printerGroupId: string;
  width: number;
  lines: string[];
}

/** The job as its printer group prints it: text lines at the group's width (receipt.ts), the time in the location's zone. */
export async function previewPrintJob(
  principal: Principal,
  printerGroupId: string,
  jobId: string,
): Promise<PrintJobPreview> {
  const { group, job } = await groupJob(principal, printerGroupId, jobId);
  const { location, terminal } = await readTogether({
    location: locationEntity.read(principal.companyId, job.locationId),
    terminal: terminals.read(principal.companyId, job.terminalId),
  });
  const zone = location?.timezone ?? 'UTC';
  const local = localDateTime(Date.parse(job.createdAt), zone);
  const lines = renderReceipt({
    width: group.width,
    locationName: location?.name ?? `Location ${job.locationId}`,
    tableName: job.content.tableName,
    printedAt: `${local.date} ${local.time}`,
    terminalName: terminal?.name,
    lines: job.content.lineItems,
    totalAmount: job.content.totalAmount,
  });
  return { jobId: job.id, printerGroupId, width: group.width, lines };
}

/**
 * The printer agent's report: queued → printed or failed. The same report again answers the job
 * unchanged (agents retry); any other change of a printed or failed job is 409. A failure raises
 * an alert at the job's location, in the same transaction.
 */
export async function reportPrintJob(
  principal: Principal,
  printerGroupId: string,
  jobId: string,
  input: ReportPrintJobBody,
): Promise<TerminalPrintJob> {
  const { group, job: prev } = await groupJob(principal, printerGroupId, jobId);
  if (prev.status === input.status) return prev;
  if (prev.status !== 'queued') throw conflict(`Print job ${jobId} was already reported ${prev.status}`);
  const { companyId } = principal;
  const now = new Date().toISOString();
  const error = input.status === 'failed' ? (input.error ?? 'the printer reported a failure') : null;
  const alert =
    input.status === 'failed'
      ? newAlert(
          {
            locationId: prev.locationId,
            alertType: PRINT_FAILED_ALERT_TYPE,
            severity: 'error',
            title: `A pre-check did not print at ${group.name}`,
            message: error,
            details: {
              jobId,
              printerGroupId,
              printerGroupName: group.name,
              terminalId: prev.terminalId,
              tabId: prev.tabId,
              tableName: prev.content.tableName,
            },
            context: {
              retry: `POST /api/v1/print-jobs/terminal-pre-check`,
              preview: `GET /api/v1/printer-groups/${printerGroupId}/jobs/${jobId}/preview`,
            },
          },
          now,
        )
      : undefined;
  const next: TerminalPrintJob = {
    ...prev,
    status: input.status,
    error,
    alertId: alert?.id ?? null,
    version: prev.version + 1,
    updatedAt: now,
  };
  await terminalJobs.report(
    companyId,
    prev,
    next,
    newEvent(companyId, 'print-job.updated', jobId, { ...next }, { status: next.status, error }),
    alert,
  );
  return next;
}
