import { Type } from '@sinclair/typebox';
import * as p from '../schemas/printing';
import { row } from './route';

export const printingRoutes = [
  row({ operationId: 'listPrinterGroups', method: 'GET', path: '/api/v1/printer-groups', permission: 'printer_groups.read', handler: 'functions/printer-groups/list.ts', area: 'printing', schemas: { query: p.ListPrinterGroupsQuery, response: Type.Array(p.PrinterGroupView) } }),
  row({ operationId: 'createPrinterGroup', method: 'POST', path: '/api/v1/printer-groups', permission: 'printer_groups.manage', handler: 'functions/printer-groups/create.ts', area: 'printing', schemas: { body: p.CreatePrinterGroupBody, response: p.PrinterGroupView } }),
  row({ operationId: 'getPrinterGroup', method: 'GET', path: '/api/v1/printer-groups/{id}', permission: 'printer_groups.read', handler: 'functions/printer-groups/get.ts', area: 'printing', schemas: { path: p.PrinterGroupPath, response: p.PrinterGroupView } }),
  row({ operationId: 'updatePrinterGroup', method: 'PATCH', path: '/api/v1/printer-groups/{id}', permission: 'printer_groups.manage', handler: 'functions/printer-groups/update.ts', area: 'printing', schemas: { path: p.PrinterGroupPath, body: p.UpdatePrinterGroupBody, response: p.PrinterGroupView } }),
  row({ operationId: 'deletePrinterGroup', method: 'DELETE', path: '/api/v1/printer-groups/{id}', permission: 'printer_groups.manage', handler: 'functions/printer-groups/delete.ts', area: 'printing', schemas: { path: p.PrinterGroupPath, response: p.PrinterGroupView } }),

  row({ operationId: 'listTerminals', method: 'GET', path: '/api/v1/terminals', permission: 'terminals.read', handler: 'functions/terminals/list.ts', area: 'printing', schemas: { query: p.ListTerminalsQuery, response: Type.Array(p.TerminalView) } }),
  row({ operationId: 'getTerminal', method: 'GET', path: '/api/v1/terminals/{id}', permission: 'terminals.read', handler: 'functions/terminals/get.ts', area: 'printing', schemas: { path: p.TerminalPath, response: p.TerminalView } }),
  row({ operationId: 'putTerminal', summary: 'Create or replace a terminal', method: 'PUT', path: '/api/v1/terminals/{id}', permission: 'terminals.update', handler: 'functions/terminals/put.ts', area: 'printing', schemas: { path: p.TerminalPath, body: p.PutTerminalBody, response: p.TerminalView } }),
  row({ operationId: 'deleteTerminal', method: 'DELETE', path: '/api/v1/terminals/{id}', permission: 'terminals.delete', handler: 'functions/terminals/delete.ts', area: 'printing', schemas: { path: p.TerminalPath, response: p.TerminalView } }),

  row({ operationId: 'terminalPreCheck', summary: "Print a tab's pre-check from a terminal", method: 'POST', path: '/api/v1/print-jobs/terminal-pre-check', permission: 'print_jobs.create', handler: 'functions/print-jobs/terminal-pre-check.ts', area: 'printing', schemas: { body: p.TerminalPreCheckBody, response: p.TerminalPrintJobView } }),
  row({ operationId: 'previewPrintJob', method: 'GET', path: '/api/v1/printer-groups/{printerGroupId}/jobs/{jobId}/preview', permission: 'print_jobs.read', handler: 'functions/print-jobs/preview.ts', area: 'printing', schemas: { path: p.PrintJobPath, response: p.PrintJobPreviewView } }),
  row({ operationId: 'reportPrintJob', summary: 'Report a print job printed or failed (the printer agent)', method: 'PATCH', path: '/api/v1/printer-groups/{printerGroupId}/jobs/{jobId}', permission: 'print_jobs.create', handler: 'functions/print-jobs/report.ts', area: 'printing', schemas: { path: p.PrintJobPath, body: p.ReportPrintJobBody, response: p.TerminalPrintJobView } }),
] as const;
