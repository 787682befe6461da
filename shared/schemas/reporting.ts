/** Reporting (docs/api.md; docs/conventions.md, “Permissions”; docs/reporting.md): report emails, export settings, the purchase summary and the export. */
import { Type, type Static } from './typebox';
import { Nullable, NumericId } from './common';
import { PaymentProvider } from './purchases';

/** A location sends its reports to at most this many addresses. */
const MAX_REPORT_EMAILS = 20;
/** A summary or an export covers at most this many days (a year, a leap year's included). */
export const MAX_REPORT_DAYS = 366;

export const ReportEmailsPath = Type.Object({ locationId: NumericId });

/** PATCH /locations/{locationId}/report-emails: the whole list (de-duplicated case-insensitively, first spelling kept); [] stops the reports. */
export const PatchReportEmailsBody = Type.Object(
  {
    emails: Type.Array(Type.String({ format: 'email', maxLength: 254 }), {
      maxItems: MAX_REPORT_EMAILS,
      description: `at most ${MAX_REPORT_EMAILS}`,
    }),
  },
  { additionalProperties: false, examples: [{ emails: ['owner@bistro.example', 'accounts@bistro.example'] }] },
);

export const ReportEmails = Type.Object(
  {
    locationId: NumericId,
    emails: Type.Array(Type.String()),
    /** When the list was last set; null: never. */
    updatedAt: Nullable(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

/** A ledger account: 4 digits (the Swedish BAS and Norwegian NS 4102 charts; GBAT10's account column holds 4). */
const LedgerAccount = Type.String({ pattern: '^[1-9][0-9]{3}$', description: 'ledger account, 4 digits' });
/** A VAT rate as purchases record it (`25`, `12`, `6`, `0`, `12.5`): the number as JSON writes it. */
const rateKey = '(?:0|[1-9][0-9]?|100)(?:\\.[0-9]?[1-9])?';

/**
 * Which ledger account each part of the takings goes to (docs/reporting.md#accounts). Every VAT
 * rate and payment provider a range's purchases met must be mapped when it is exported (422 naming
 * the missing ones); `sales.none` takes what no VAT row covers (plain amounts recorded without rows).
 */
export const ExportAccounts = Type.Object(
  {
    sales: Type.Record(Type.String({ pattern: `^(?:${rateKey}|none)$` }), LedgerAccount, {
      additionalProperties: false,
      maxProperties: 21,
      description: 'per VAT rate (and `none`): the sales account, credited with the net',
    }),
    vat: Type.Record(Type.String({ pattern: `^${rateKey}$` }), LedgerAccount, {
      additionalProperties: false,
      maxProperties: 20,
      description: 'per VAT rate: the output VAT account',
    }),
    paymentProviders: Type.Record(
      Type.String({ pattern: PaymentProvider.pattern as string, maxLength: 50 }),
      LedgerAccount,
      {
        additionalProperties: false,
        maxProperties: 50,
        description: 'per payment provider: the account debited with what it took',
      },
    ),
    tips: LedgerAccount,
    serviceFees: Type.Optional(LedgerAccount),
  },
  { additionalProperties: false },
);

const ExportType = Type.Union([Type.Literal('sie'), Type.Literal('gbat10')]);

/** PUT /reporting/export-settings: creates or replaces the location's settings. */
export const PutExportSettingsBody = Type.Object(
  {
    locationId: NumericId,
    exportType: ExportType,
    includeServiceFees: Type.Optional(
      Type.Boolean({ default: false, description: 'book service fees (accounts.serviceFees required)' }),
    ),
    splitByCostCenter: Type.Optional(Type.Boolean({ default: false })),
    accounts: ExportAccounts,
  },
  {
    additionalProperties: false,
    examples: [
      {
        locationId: 101,
        exportType: 'sie',
        includeServiceFees: false,
        splitByCostCenter: false,
        accounts: {
          sales: { '25': '3001', '12': '3002', none: '3000' },
          vat: { '25': '2611', '12': '2621' },
          paymentProviders: { card: '1580' },
          tips: '2890',
        },
      },
    ],
  },
);

export const ExportSettings = Type.Object(
  {
    locationId: NumericId,
    exportType: ExportType,
    includeServiceFees: Type.Boolean(),
    splitByCostCenter: Type.Boolean(),
    accounts: ExportAccounts,
    version: Type.Integer(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const ExportSettingsQuery = Type.Object({ locationId: NumericId });

const day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD, a local date of the location' });

/** GET /reporting/purchase-summary: `locationId` (else the X-Location-Id header), the dates inclusive. */
export const PurchaseSummaryQuery = Type.Object({
  locationId: Type.Optional(NumericId),
  startDate: day,
  endDate: day,
  splitByCostCenter: Type.Boolean({ default: false }),
});

/** GET /reporting/export: the location's export (its settings' format) of the dates, inclusive. */
export const ExportQuery = Type.Object({
  locationId: Type.Optional(NumericId),
  startDate: day,
  endDate: day,
});

const money = Type.Integer({ description: 'minor units' });
const costCenterFields = {
  costCenterCode: Type.Optional(Type.String()),
  costCenterName: Type.Optional(Type.String()),
};

/** The summary's answer (docs/reporting.md#the-purchase-summary); with the split, rows may name a cost center and `costCenters` is added. */
export const PurchaseSummary = Type.Object(
  {
    totals: Type.Object(
      { count: Type.Integer(), amount: money, vat: money, net: money, tip: money, serviceFee: money, total: money },
      { additionalProperties: false },
    ),
    items: Type.Array(
      Type.Object(
        {
          itemId: Nullable(NumericId),
          name: Type.String(),
          unitPrice: money,
          vatRate: Nullable(Type.Number()),
          quantity: Type.Integer(),
          amount: money,
          ...costCenterFields,
        },
        { additionalProperties: false },
      ),
    ),
    vats: Type.Array(
      Type.Object(
        { vatRate: Nullable(Type.Number()), amount: money, vat: money, net: money, ...costCenterFields },
        { additionalProperties: false },
      ),
    ),
    psp: Type.Array(
      Type.Object(
        {
          paymentProvider: Type.String(),
          count: Type.Integer(),
          amount: money,
          tip: money,
          serviceFee: money,
          total: money,
          ...costCenterFields,
        },
        { additionalProperties: false },
      ),
    ),
    costCenters: Type.Optional(
      Type.Array(
        Type.Object(
          { costCenterCode: Type.String(), costCenterName: Type.String(), amount: money, vat: money, net: money },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

export type PatchReportEmailsBody = Static<typeof PatchReportEmailsBody>;
export type ReportEmails = Static<typeof ReportEmails>;
export type ExportAccounts = Static<typeof ExportAccounts>;
export type PutExportSettingsBody = Static<typeof PutExportSettingsBody>;
export type ExportSettings = Static<typeof ExportSettings>;
export type PurchaseSummaryQuery = Static<typeof PurchaseSummaryQuery>;
export type ExportQuery = Static<typeof ExportQuery>;
export type PurchaseSummary = Static<typeof PurchaseSummary>;
