import * as capacity from '../schemas/capacity';
import { LocationPath } from '../schemas/locations';
import { row } from './route';

const area = 'capacity';
const settingsPath = '/api/v1/locations/{locationId}/capacity-settings';
const waitingTimePath = '/api/v1/extended-waiting-time';

export const capacityRoutes = [
  row({
    operationId: 'listCapacitySettings',
    method: 'GET',
    path: settingsPath,
    permission: 'capacity_settings.read',
    handler: 'functions/capacity-settings/list.ts',
    area,
    schemas: {
      path: LocationPath,
      query: capacity.ListCapacitySettingsQuery,
      response: capacity.CapacitySettingListView,
    },
  }),
  row({
    operationId: 'createCapacitySetting',
    method: 'POST',
    path: settingsPath,
    permission: 'capacity_settings.manage',
    handler: 'functions/capacity-settings/create.ts',
    area,
    schemas: { path: LocationPath, body: capacity.CreateCapacitySettingBody, response: capacity.CapacitySettingView },
  }),
  row({
    operationId: 'getCapacitySetting',
    method: 'GET',
    path: `${settingsPath}/{id}`,
    permission: 'capacity_settings.read',
    handler: 'functions/capacity-settings/get.ts',
    area,
    schemas: { path: capacity.CapacitySettingPath, response: capacity.CapacitySettingView },
  }),
  row({
    operationId: 'updateCapacitySetting',
    method: 'PUT',
    path: `${settingsPath}/{id}`,
    permission: 'capacity_settings.manage',
    handler: 'functions/capacity-settings/update.ts',
    area,
    schemas: {
      path: capacity.CapacitySettingPath,
      body: capacity.UpdateCapacitySettingBody,
      response: capacity.CapacitySettingView,
    },
  }),
  row({
    operationId: 'deleteCapacitySetting',
    method: 'DELETE',
    path: `${settingsPath}/{id}`,
    permission: 'capacity_settings.manage',
    handler: 'functions/capacity-settings/delete.ts',
    area,
    schemas: { path: capacity.CapacitySettingPath, response: capacity.CapacitySettingView },
  }),

  row({
    operationId: 'getExtendedWaitingTime',
    method: 'GET',
    path: waitingTimePath,
    permission: 'locations.read',
    handler: 'functions/extended-waiting-time/get.ts',
    area,
    schemas: { query: capacity.GetWaitingTimeQuery, response: capacity.RunningWaitingTimeView },
  }),
  row({
    operationId: 'putExtendedWaitingTime',
    method: 'POST',
    path: waitingTimePath,
    permission: 'locations.manage',
    handler: 'functions/extended-waiting-time/put.ts',
    area,
    schemas: { body: capacity.PutWaitingTimeBody, response: capacity.ExtendedWaitingTimeView },
  }),
  row({
    operationId: 'deleteExtendedWaitingTime',
    method: 'DELETE',
    path: waitingTimePath,
    permission: 'locations.manage',
    handler: 'functions/extended-waiting-time/delete.ts',
    area,
    schemas: { query: capacity.DeleteWaitingTimeQuery, response: capacity.RunningWaitingTimeView },
  }),
] as const;
