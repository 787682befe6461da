import * as coursings from '../schemas/coursings';
import * as items from '../schemas/items';
import { row } from './route';

export const menuRoutes = [
  row({ operationId: 'listCoursings', method: 'GET', path: '/api/v1/coursings', permission: 'coursings.read', handler: 'functions/coursings/list.ts', area: 'menu', schemas: { query: coursings.ListCoursingsQuery } }),
  row({ operationId: 'createCoursing', method: 'POST', path: '/api/v1/coursings', permission: 'coursings.create', handler: 'functions/coursings/create.ts', area: 'menu', schemas: { body: coursings.CreateCoursingBody } }),
  row({ operationId: 'updateCoursing', method: 'PUT', path: '/api/v1/coursings/{id}', permission: 'coursings.update', handler: 'functions/coursings/update.ts', area: 'menu', schemas: { path: coursings.CoursingIdPath, body: coursings.UpdateCoursingBody } }),

  row({ operationId: 'listItems', method: 'GET', path: '/api/v1/items', permission: 'items.read', handler: 'functions/items/list.ts', area: 'menu', schemas: { query: items.ListItemsQuery } }),
  row({ operationId: 'createItem', method: 'POST', path: '/api/v1/items', permission: 'items.manage', handler: 'functions/items/create.ts', area: 'menu', schemas: { body: items.CreateItemBody } }),
  row({ operationId: 'getItem', method: 'GET', path: '/api/v1/items/{id}', permission: 'items.read', handler: 'functions/items/get.ts', area: 'menu', schemas: { path: items.ItemPath } }),
  row({ operationId: 'updateItem', method: 'PATCH', path: '/api/v1/items/{id}', permission: 'items.manage', handler: 'functions/items/update.ts', area: 'menu', schemas: { path: items.ItemPath, body: items.UpdateItemBody } }),
  row({ operationId: 'deleteItem', method: 'DELETE', path: '/api/v1/items/{id}', permission: 'items.manage', handler: 'functions/items/delete.ts', area: 'menu', schemas: { path: items.ItemPath } }),
] as const;
