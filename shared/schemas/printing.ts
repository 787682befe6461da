/**
 * Printing (docs/printing.md; docs/api.md; docs/conventions.md, “Permissions”): printer groups, terminals, the terminal pre-check
 * print job, its preview and the printer agent's report. Money is in minor units (docs/conventions.md, “Money, VAT and time”).
 */
import { Type, type Static } from './typebox';
import { Nullable, NumericId, Uuid, pageQuery } from './common';
import { Money, VatRate } from './items';
import { displayName } from './locations';
import { Prose } from './text';

/** Characters per printed line: 24 (the narrowest 58 mm printers) to 64. */
const PrinterWidth = Type.Integer({ minimum: 24, maximum: 64, description: 'characters per line' });
export const DEFAULT_PRINTER_WIDTH = 42;

export const PrinterGroupPath = Type.Object({ id: Uuid });
export const ListPrinterGroupsQuery = Type.Object({ locationId: Type.Optional(NumericId), ...pageQuery(100, 20) });
export const CreatePrinterGroupBody = Type.Object(
  { locationId: NumericId, name: displayName(100), width: Type.Optional(PrinterWidth) },
  { additionalProperties: false, examples: [{ locationId: 101, name: 'Bar printers', width: 42 }] },
);
export const UpdatePrinterGroupBody = Type.Object(
  { name: Type.Optional(displayName(100)), width: Type.Optional(PrinterWidth) },
  { additionalProperties: false, minProperties: 1, examples: [{ width: 32 }] },
);

export const TerminalPath = Type.Object({ id: Uuid });
export const ListTerminalsQuery = Type.Object({ locationId: Type.Optional(NumericId), ...pageQuery(100, 20) });
/** A terminal as PUT creates or replaces it: every field it has (an absent printerGroupId is none). */
export const PutTerminalBody = Type.Object(
  { locationId: NumericId, name: displayName(100), printerGroupId: Type.Optional(Nullable(Uuid)) },
  {
    additionalProperties: false,
    examples: [{ locationId: 101, name: 'Bar terminal 1', printerGroupId: '5b7c1e0a-3f2d-4a8b-9c6e-1d2f3a4b5c6d' }],
  },
);

/** A modification's price may take off (minor units, −1,000,000.00 to 1,000,000.00). */
const ModificationPrice = Type.Integer({
  minimum: -100_000_000,
  maximum: 100_000_000,
  description: 'minor units; negative takes off',
});

const PreCheckLineItem = Type.Object(
  {
    name: displayName(200),
    price: Money,
    modifications: Type.Array(
      Type.Object(
        { name: displayName(200), price: ModificationPrice },
        { title: 'PreCheckLineItem', additionalProperties: false },
      ),
      { maxItems: 20 },
    ),
    vatRate: Type.Optional(VatRate),
  },
  { additionalProperties: false },
);

/** The pre-check body: every field required (a line item's `vatRate` is this service's optional addition, for the VAT summary). */
export const TerminalPreCheckBody = Type.Object(
  {
    locationId: NumericId,
    tabId: Uuid,
    terminalId: Uuid,
    content: Type.Object(
      {
        tableName: displayName(100),
        totalAmount: Type.Integer({ minimum: 0, maximum: 10_000_000_000, description: 'minor units' }),
        lineItems: Type.Array(PreCheckLineItem, { maxItems: 200 }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        locationId: 101,
        tabId: '0e1d2c3b-4a59-4867-8f7e-6d5c4b3a2918',
        terminalId: '7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910',
        content: {
          tableName: 'T12',
          totalAmount: 41800,
          lineItems: [
            { name: 'Burger', price: 18900, modifications: [{ name: 'Extra cheese', price: 1500 }], vatRate: 12 },
            { name: 'IPA', price: 9700, modifications: [], vatRate: 25 },
            { name: 'IPA', price: 9700, modifications: [], vatRate: 25 },
          ],
        },
      },
    ],
  },
);

export const PrintJobPath = Type.Object({ printerGroupId: Uuid, jobId: Uuid });

/** The printer agent's report on a job: printed, or failed (with what went wrong). */
export const ReportPrintJobBody = Type.Object(
  {
    status: Type.Union([Type.Literal('printed'), Type.Literal('failed')]),
    error: Type.Optional(Prose(500)),
  },
  { additionalProperties: false, examples: [{ status: 'failed', error: 'paper out' }] },
);

const instant = Type.String({ format: 'date-time' });
const version = Type.Integer({ minimum: 1 });

export const PrinterGroupView = Type.Object(
  {
    id: Uuid,
    locationId: NumericId,
    name: Type.String(),
    width: PrinterWidth,
    version,
    createdAt: instant,
    updatedAt: instant,
  },
  { title: 'PrinterGroup', additionalProperties: false },
);

export const TerminalView = Type.Object(
  {
    id: Uuid,
    locationId: NumericId,
    name: Type.String(),
    printerGroupId: Nullable(Uuid),
    version,
    createdAt: instant,
    updatedAt: instant,
  },
  { title: 'Terminal', additionalProperties: false },
);

/** A terminal's pre-check job: queued for its printer group until the printer agent reports it. */
export const TerminalPrintJobView = Type.Object(
  {
    id: Uuid,
    locationId: NumericId,
    kind: Type.Literal('terminal_pre_check'),
    status: Type.Union([Type.Literal('queued'), Type.Literal('printed'), Type.Literal('failed')]),
    printerGroupId: Uuid,
    terminalId: Uuid,
    tabId: Uuid,
    content: TerminalPreCheckBody.properties.content,
    error: Nullable(Type.String()),
    alertId: Nullable(Uuid),
    version,
    createdAt: instant,
    updatedAt: instant,
  },
  { title: 'TerminalPrintJob', additionalProperties: false },
);

/** The job as its printer group prints it: text lines at the group's width. */
export const PrintJobPreviewView = Type.Object(
  { jobId: Uuid, printerGroupId: Uuid, width: PrinterWidth, lines: Type.Array(Type.String()) },
  { title: 'PrintJobPreview', additionalProperties: false },
);

export type CreatePrinterGroupBody = Static<typeof CreatePrinterGroupBody>;
export type UpdatePrinterGroupBody = Static<typeof UpdatePrinterGroupBody>;
export type ListPrinterGroupsQuery = Static<typeof ListPrinterGroupsQuery>;
export type ListTerminalsQuery = Static<typeof ListTerminalsQuery>;
export type PutTerminalBody = Static<typeof PutTerminalBody>;
export type TerminalPreCheckBody = Static<typeof TerminalPreCheckBody>;
export type ReportPrintJobBody = Static<typeof ReportPrintJobBody>;
