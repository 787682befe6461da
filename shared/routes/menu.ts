import * as coursings from '../schemas/coursings';
import { row } from './route';

export const menuRoutes = [
  row({ operationId: 'listCoursings', method: 'GET', path: '/api/v1/coursings', permission: 'coursings.read', handler: 'functions/coursings/list.ts', area: 'menu', schemas: { query: coursings.ListCoursingsQuery } }),
  row({ operationId: 'createCoursing', method: 'POST', path: '/api/v1/coursings', permission: 'coursings.create', handler: 'functions/coursings/create.ts', area: 'menu', schemas: { body: coursings.CreateCoursingBody } }),
  row({ operationId: 'updateCoursing', method: 'PUT', path: '/api/v1/coursings/{id}', permission: 'coursings.update', handler: 'functions/coursings/update.ts', area: 'menu', schemas: { path: coursings.CoursingIdPath, body: coursings.UpdateCoursingBody } }),
] as const;
