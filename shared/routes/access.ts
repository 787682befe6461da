import { Type } from '@sinclair/typebox';
import * as access from '../schemas/access';
import { row } from './route';

export const accessRoutes = [
  row({ operationId: 'listPermissions', method: 'GET', path: '/api/v1/permissions', permission: 'permissions.read', handler: 'functions/permissions/list.ts', area: 'access', schemas: { query: access.ListPermissionsQuery, response: Type.Array(access.PermissionView) } }),
  row({ operationId: 'createPermission', method: 'POST', path: '/api/v1/permissions', permission: 'permissions.create', handler: 'functions/permissions/create.ts', area: 'access', schemas: { body: access.CreatePermissionBody, response: access.PermissionView } }),
  row({ operationId: 'updatePermission', method: 'PUT', path: '/api/v1/permissions/{id}', permission: 'permissions.update', handler: 'functions/permissions/update.ts', area: 'access', schemas: { path: access.PermissionIdPath, body: access.UpdatePermissionBody, response: access.PermissionView } }),
  row({ operationId: 'deletePermission', method: 'DELETE', path: '/api/v1/permissions/{id}', permission: 'permissions.delete', handler: 'functions/permissions/delete.ts', area: 'access', schemas: { path: access.PermissionIdPath, response: access.PermissionView } }),

  row({ operationId: 'listRoles', method: 'GET', path: '/api/v1/roles', permission: 'roles.read', handler: 'functions/roles/list.ts', area: 'access', schemas: { query: access.ListRolesQuery, response: Type.Array(access.RoleView) } }),
  row({ operationId: 'createRole', method: 'POST', path: '/api/v1/roles', permission: 'roles.create', handler: 'functions/roles/create.ts', area: 'access', schemas: { body: access.CreateRoleBody, response: access.RoleView } }),
  row({ operationId: 'updateRole', method: 'PUT', path: '/api/v1/roles/{id}', permission: 'roles.update', handler: 'functions/roles/update.ts', area: 'access', schemas: { path: access.RoleIdPath, body: access.UpdateRoleBody, response: access.RoleView } }),

  row({ operationId: 'listApiKeys', method: 'GET', path: '/api/v1/api-keys', permission: 'api_keys.read', handler: 'functions/api-keys/list.ts', area: 'access', schemas: { query: access.ListApiKeysQuery, response: Type.Array(access.ApiKeyView) } }),
  row({ operationId: 'createApiKey', method: 'POST', path: '/api/v1/api-keys', permission: 'api_keys.manage', handler: 'functions/api-keys/create.ts', area: 'access', schemas: { body: access.CreateApiKeyBody, response: access.CreatedApiKeyView } }),
  row({ operationId: 'getApiKey', method: 'GET', path: '/api/v1/api-keys/{id}', permission: 'api_keys.read', handler: 'functions/api-keys/get.ts', area: 'access', schemas: { path: access.ApiKeyIdPath, response: access.ApiKeyView } }),
  row({ operationId: 'updateApiKey', method: 'PATCH', path: '/api/v1/api-keys/{id}', permission: 'api_keys.manage', handler: 'functions/api-keys/update.ts', area: 'access', schemas: { path: access.ApiKeyIdPath, body: access.UpdateApiKeyBody, response: access.ApiKeyView } }),
  row({ operationId: 'deleteApiKey', summary: 'Delete an API key (revokes it; the record stays)', method: 'DELETE', path: '/api/v1/api-keys/{id}', permission: 'api_keys.manage', handler: 'functions/api-keys/delete.ts', area: 'access', schemas: { path: access.ApiKeyIdPath, response: access.ApiKeyView } }),
  row({ operationId: 'revokeApiKey', method: 'POST', path: '/api/v1/api-keys/{id}/revoke', permission: 'api_keys.manage', handler: 'functions/api-keys/revoke.ts', area: 'access', schemas: { path: access.ApiKeyIdPath, response: access.ApiKeyView } }),
] as const;
