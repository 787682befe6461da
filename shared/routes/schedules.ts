import * as sc from '../schemas/schedules';
import { row } from './route';

const area = 'menu';

/** Schedules and their rules (spec 2.14, decisions.md §4, docs/schedules.md). The availability row comes before `/schedules/{id}`: the first row whose path matches answers. */
export const schedulesRoutes = [
  row({ operationId: 'listSchedules', method: 'GET', path: '/api/v1/schedules', permission: 'schedules.read', handler: 'functions/schedules/list.ts', area, schemas: { query: sc.ListSchedulesQuery, response: sc.ScheduleListView } }),
  row({ operationId: 'createSchedule', method: 'POST', path: '/api/v1/schedules', permission: 'schedules.create', handler: 'functions/schedules/create.ts', area, schemas: { body: sc.CreateScheduleBody, response: sc.ScheduleView } }),
  row({ operationId: 'checkScheduleAvailability', method: 'GET', path: '/api/v1/schedules/availability', permission: 'schedules.read', handler: 'functions/schedules/availability.ts', area, schemas: { query: sc.AvailabilityQuery, response: sc.ScheduleAvailabilityView } }),
  row({ operationId: 'getSchedule', method: 'GET', path: '/api/v1/schedules/{id}', permission: 'schedules.read', handler: 'functions/schedules/get.ts', area, schemas: { path: sc.SchedulePath, response: sc.ScheduleView } }),
  row({ operationId: 'updateSchedule', method: 'PATCH', path: '/api/v1/schedules/{id}', permission: 'schedules.update', handler: 'functions/schedules/update.ts', area, schemas: { path: sc.SchedulePath, body: sc.UpdateScheduleBody, response: sc.ScheduleView } }),
  row({ operationId: 'deleteSchedule', method: 'DELETE', path: '/api/v1/schedules/{id}', permission: 'schedules.delete', handler: 'functions/schedules/delete.ts', area, schemas: { path: sc.SchedulePath, response: sc.ScheduleView } }),
  row({ operationId: 'replaceScheduleRules', method: 'PUT', path: '/api/v1/schedules/{scheduleId}/rules', permission: 'schedules.update', handler: 'functions/schedules/replace-rules.ts', area, schemas: { path: sc.ScheduleRulesPath, body: sc.ReplaceRulesBody, response: sc.ScheduleView } }),
  row({ operationId: 'addScheduleRule', method: 'POST', path: '/api/v1/schedules/{scheduleId}/rules', permission: 'schedules.create', handler: 'functions/schedules/add-rule.ts', area, schemas: { path: sc.ScheduleRulesPath, body: sc.RuleBody, response: sc.ScheduleRuleView } }),
  row({ operationId: 'updateScheduleRule', method: 'PATCH', path: '/api/v1/schedule-rules/{ruleId}', permission: 'schedules.update', handler: 'functions/schedule-rules/update.ts', area, schemas: { path: sc.RulePath, body: sc.UpdateRuleBody, response: sc.ScheduleRuleView } }),
  row({ operationId: 'deleteScheduleRule', method: 'DELETE', path: '/api/v1/schedule-rules/{ruleId}', permission: 'schedules.delete', handler: 'functions/schedule-rules/delete.ts', area, schemas: { path: sc.RulePath, response: sc.ScheduleRuleView } }),
] as const;
