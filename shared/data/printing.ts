/**
 * Printer groups and terminals (docs/printing.md):
 *
 *   printer group   C#<cid> / PRINTERGROUP#<id>   gsi1 C#<cid>#PRINTERGROUPS / L#<locationId:12>#<createdAt>#<id>
 *   terminal        C#<cid> / TERMINAL#<id>       gsi1 C#<cid>#TERMINALS / L#<locationId:12>#<createdAt>#<id>
 *
 * Both are location content (a location is deleted only without them) and counted per company and
 * per location. A terminal may name a printer group of its location; the group counts the terminals
 * that name it (`COUNT#TERMINAL#PG#<id>`) and is deleted only while none does.
 */
import type { Static } from '@sinclair/typebox';
import { conflict, AppError } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { PrinterGroupView, TerminalView } from '../schemas/printing';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { locationCounter, locationEntity, type LocationContent } from './locations';
import { outboxStep } from './outbox';
import { counterStep, type PageRequest } from './paging';
import { deleteStep, transact, type Step } from './transact';

/** A printer group as stored and shown (`width`: characters per printed line): declared by PrinterGroupView. */
export type PrinterGroup = Static<typeof PrinterGroupView>;

/** A terminal as stored and shown (`printerGroupId`: where its pre-checks print; null: nowhere yet): declared by TerminalView. */
export type Terminal = Static<typeof TerminalView>;

/** A family listed by location (then creation time), counted per company and per location. */
function locatedFamily(name: string, content: LocationContent) {
  const partition = (companyId: number) => `${keys.company(companyId)}#${name}S`;
  const prefix = (locationId: number) => `L#${keys.pad(locationId)}#`;
  const counter = (companyId: number, locationId?: number) =>
    locationId === undefined ? companyKey(companyId, `COUNT#${name}`) : locationCounter(companyId, locationId, content);
  return {
    indexes: (companyId: number, v: { locationId: number; createdAt: string; id: string }) => ({
      gsi1pk: partition(companyId),
      gsi1sk: `${prefix(v.locationId)}${v.createdAt}#${v.id}`,
    }),
    collection: (companyId: number, locationId: number | undefined) => ({
      index: 'gsi1' as const,
      partition: partition(companyId),
      ...(locationId === undefined ? {} : { prefix: prefix(locationId) }),
      counter: counter(companyId, locationId),
    }),
    /** Counter moves of one entering (+1) or leaving (−1) a location. */
    counted: (companyId: number, locationId: number, delta: number): Step[] => [
      counterStep(counter(companyId), delta),
      counterStep(counter(companyId, locationId), delta),
    ],
    /** Counter moves of one moving between locations (none when it stays). */
    moved: (companyId: number, from: number, to: number): Step[] =>
      from === to ? [] : [counterStep(counter(companyId, from), -1), counterStep(counter(companyId, to), 1)],
  };
}

const groups = locatedFamily('PRINTERGROUP', 'PRINTERGROUP');
const terminalsFamily = locatedFamily('TERMINAL', 'TERMINAL');

export const printerGroupEntity = defineEntity({
  name: 'PRINTER_GROUP',
  label: 'printer group',
  key: (companyId: number, id: string) => companyKey(companyId, `PRINTERGROUP#${id}`),
  schema: PrinterGroupView,
  keyOf: (companyId, g) => [companyId, g.id] as const,
  indexes: groups.indexes,
});

export const terminalEntity = defineEntity({
  name: 'TERMINAL',
  label: 'terminal',
  key: (companyId: number, id: string) => companyKey(companyId, `TERMINAL#${id}`),
  schema: TerminalView,
  keyOf: (companyId, t) => [companyId, t.id] as const,
  indexes: terminalsFamily.indexes,
});

/** How many terminals name the group. */
const groupUse = (companyId: number, groupId: string) => companyKey(companyId, `COUNT#TERMINAL#PG#${groupId}`);

/** The group exists (else 404 naming `/printerGroupId`), as a step beside a terminal's write. */
const groupExists = (companyId: number, groupId: string) =>
  printerGroupEntity.existsStep(
    [companyId, groupId],
    () =>
      new AppError('NOT_FOUND', `Printer group ${groupId} not found`, [
        { path: '/printerGroupId', message: 'no printer group with this id' },
      ]),
  );

/** Steps of a terminal ceasing to name `from` and starting to name `to` (none when it keeps its group). */
function groupLinkSteps(companyId: number, from: string | null, to: string | null): Step[] {
  if (from === to) return [];
  return [
    ...(from ? [counterStep(groupUse(companyId, from), -1)] : []),
    ...(to ? [groupExists(companyId, to), counterStep(groupUse(companyId, to), 1)] : []),
  ];
}

export const printerGroups = {
  get: printerGroupEntity.get,
  read: printerGroupEntity.read,

  list: (companyId: number, locationId: number | undefined, page: PageRequest): Promise<Page<PrinterGroup>> =>
    printerGroupEntity.list(groups.collection(companyId, locationId), page),

  /** Adds the group, its counters and its event at once; the location must exist in the company. */
  async create(companyId: number, g: PrinterGroup, event: DomainEvent): Promise<void> {
    await transact([
      locationEntity.existsStep([companyId, g.locationId]),
      printerGroupEntity.newItemStep(companyId, g),
      ...groups.counted(companyId, g.locationId, 1),
      outboxStep(event),
    ]);
  },

  async update(companyId: number, prev: PrinterGroup, next: PrinterGroup, event: DomainEvent): Promise<void> {
    await transact([printerGroupEntity.versionedPutStep(companyId, next, prev.version), outboxStep(event)]);
  },

  /** Deletes the group as it was read, only while no terminal names it (409 otherwise). */
  async remove(companyId: number, g: PrinterGroup, event: DomainEvent): Promise<void> {
    const unused = deleteStep(
      groupUse(companyId, g.id),
      { expression: 'attribute_not_exists(n) OR n <= :zero', values: { ':zero': 0 } },
      () => conflict(`Printer group ${g.id} is used by terminals; point them elsewhere first`),
    );
    await transact([
      unused,
      printerGroupEntity.versionedDeleteStep(companyId, g),
      ...groups.counted(companyId, g.locationId, -1),
      outboxStep(event),
    ]);
  },
};

export const terminals = {
  get: terminalEntity.get,
  read: terminalEntity.read,

  list: (companyId: number, locationId: number | undefined, page: PageRequest): Promise<Page<Terminal>> =>
    terminalEntity.list(terminalsFamily.collection(companyId, locationId), page),

  /**
   * Writes the terminal as PUT makes it: new (put-if-absent, counted) or replacing `prev` at its
   * version, moving its location and group counters; the location and the group must exist.
   */
  async put(companyId: number, prev: Terminal | undefined, next: Terminal, event: DomainEvent): Promise<void> {
    const steps: Step[] = prev
      ? [
          terminalEntity.versionedPutStep(companyId, next, prev.version),
          ...terminalsFamily.moved(companyId, prev.locationId, next.locationId),
          ...groupLinkSteps(companyId, prev.printerGroupId, next.printerGroupId),
        ]
      : [
          terminalEntity.newItemStep(companyId, next),
          ...terminalsFamily.counted(companyId, next.locationId, 1),
          ...groupLinkSteps(companyId, null, next.printerGroupId),
        ];
    const locationExists =
      prev?.locationId === next.locationId ? [] : [locationEntity.existsStep([companyId, next.locationId])];
    // The group a terminal keeps is checked too: a replace never names a deleted group.
    const keptGroup =
      prev && prev.printerGroupId === next.printerGroupId && next.printerGroupId
        ? [groupExists(companyId, next.printerGroupId)]
        : [];
    await transact([...locationExists, ...steps, ...keptGroup, outboxStep(event)]);
  },

  async remove(companyId: number, t: Terminal, event: DomainEvent): Promise<void> {
    await transact([
      terminalEntity.versionedDeleteStep(companyId, t),
      ...terminalsFamily.counted(companyId, t.locationId, -1),
      ...groupLinkSteps(companyId, t.printerGroupId, null),
      outboxStep(event),
    ]);
  },
};
