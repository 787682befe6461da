/**
 * Printing (spec 2.15, 4.1; decisions.md §4, §7): printer groups, terminals, the terminal pre-check
 * print job, its preview and the printer agent's report. Money is in minor units (decisions.md §9).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, NumericId, Uuid, pageQuery } from './common';
import { Money, VatRate } from './items';
import { displayName } from './locations';

/** Characters per printed line: 24 (the narrowest 58 mm printers) to 64. */
export const PrinterWidth = Type.Integer({ minimum: 24, maximum: 64, description: 'characters per line' });
export const DEFAULT_PRINTER_WIDTH = 42;

export const PrinterGroupPath = Type.Object({ id: Uuid });
export const ListPrinterGroupsQuery = Type.Object({ locationId: Type.Optional(NumericId), ...pageQuery(100, 20) });
export const CreatePrinterGroupBody = Type.Object(
  { locationId: NumericId, name: displayName(100), width: Type.Optional(PrinterWidth) },
  { additionalProperties: false },
);
export const UpdatePrinterGroupBody = Type.Object(
  { name: Type.Optional(displayName(100)), width: Type.Optional(PrinterWidth) },
  { additionalProperties: false, minProperties: 1 },
);

export const TerminalPath = Type.Object({ id: Uuid });
export const ListTerminalsQuery = Type.Object({ locationId: Type.Optional(NumericId), ...pageQuery(100, 20) });
/** A terminal as PUT creates or replaces it: every field it has (an absent printerGroupId is none). */
export const PutTerminalBody = Type.Object(
  { locationId: NumericId, name: displayName(100), printerGroupId: Type.Optional(Nullable(Uuid)) },
  { additionalProperties: false },
);

/** A modification's price may take off (minor units, −1,000,000.00 to 1,000,000.00). */
const ModificationPrice = Type.Integer({ minimum: -100_000_000, maximum: 100_000_000, description: 'minor units; negative takes off' });

export const PreCheckLineItem = Type.Object(
  {
    name: displayName(200),
    price: Money,
    modifications: Type.Array(Type.Object({ name: displayName(200), price: ModificationPrice }, { additionalProperties: false }), { maxItems: 20 }),
    vatRate: Type.Optional(VatRate),
  },
  { additionalProperties: false },
);

/** Spec 2.15: every field required (a line item's `vatRate` is this service's optional addition, for the VAT summary). */
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
  { additionalProperties: false },
);

export const PrintJobPath = Type.Object({ printerGroupId: Uuid, jobId: Uuid });

/** The printer agent's report on a job: printed, or failed (with what went wrong). */
export const ReportPrintJobBody = Type.Object(
  {
    status: Type.Union([Type.Literal('printed'), Type.Literal('failed')]),
    error: Type.Optional(Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' })),
  },
  { additionalProperties: false },
);

export type CreatePrinterGroupBody = Static<typeof CreatePrinterGroupBody>;
export type UpdatePrinterGroupBody = Static<typeof UpdatePrinterGroupBody>;
export type ListPrinterGroupsQuery = Static<typeof ListPrinterGroupsQuery>;
export type ListTerminalsQuery = Static<typeof ListTerminalsQuery>;
export type PutTerminalBody = Static<typeof PutTerminalBody>;
export type TerminalPreCheckBody = Static<typeof TerminalPreCheckBody>;
export type PreCheckContent = TerminalPreCheckBody['content'];
export type ReportPrintJobBody = Static<typeof ReportPrintJobBody>;
