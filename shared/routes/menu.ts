import * as coursings from '../schemas/coursings';
import * as tags from '../schemas/customTags';
import * as items from '../schemas/items';
import * as vg from '../schemas/variantGroups';
import { row } from './route';

export const menuRoutes = [
  row({ operationId: 'listCoursings', method: 'GET', path: '/api/v1/coursings', permission: 'coursings.read', handler: 'functions/coursings/list.ts', area: 'menu', schemas: { query: coursings.ListCoursingsQuery, response: coursings.CoursingListView } }),
  row({ operationId: 'createCoursing', method: 'POST', path: '/api/v1/coursings', permission: 'coursings.create', handler: 'functions/coursings/create.ts', area: 'menu', schemas: { body: coursings.CreateCoursingBody, response: coursings.CoursingView } }),
  row({ operationId: 'updateCoursing', method: 'PUT', path: '/api/v1/coursings/{id}', permission: 'coursings.update', handler: 'functions/coursings/update.ts', area: 'menu', schemas: { path: coursings.CoursingIdPath, body: coursings.UpdateCoursingBody, response: coursings.CoursingView } }),

  row({ operationId: 'listItems', method: 'GET', path: '/api/v1/items', permission: 'items.read', handler: 'functions/items/list.ts', area: 'menu', schemas: { query: items.ListItemsQuery, response: items.ItemListView } }),
  row({ operationId: 'createItem', method: 'POST', path: '/api/v1/items', permission: 'items.manage', handler: 'functions/items/create.ts', area: 'menu', schemas: { body: items.CreateItemBody, response: items.ItemView } }),
  row({ operationId: 'getItem', method: 'GET', path: '/api/v1/items/{id}', permission: 'items.read', handler: 'functions/items/get.ts', area: 'menu', schemas: { path: items.ItemPath, response: items.ItemView } }),
  row({ operationId: 'updateItem', method: 'PATCH', path: '/api/v1/items/{id}', permission: 'items.manage', handler: 'functions/items/update.ts', area: 'menu', schemas: { path: items.ItemPath, body: items.UpdateItemBody, response: items.ItemView } }),
  row({ operationId: 'deleteItem', method: 'DELETE', path: '/api/v1/items/{id}', permission: 'items.manage', handler: 'functions/items/delete.ts', area: 'menu', schemas: { path: items.ItemPath, response: items.ItemView } }),

  row({ operationId: 'listVariantGroups', method: 'GET', path: '/api/v1/variant-groups', permission: 'variant_groups.read', handler: 'functions/variant-groups/list.ts', area: 'menu', schemas: { query: vg.ListVariantGroupsQuery, response: vg.VariantGroupListView } }),
  row({ operationId: 'createVariantGroup', method: 'POST', path: '/api/v1/variant-groups', permission: 'variant_groups.create', handler: 'functions/variant-groups/create.ts', area: 'menu', schemas: { body: vg.CreateVariantGroupBody, response: vg.VariantGroupView } }),
  row({ operationId: 'getVariantGroup', method: 'GET', path: '/api/v1/variant-groups/{id}', permission: 'variant_groups.read', handler: 'functions/variant-groups/get.ts', area: 'menu', schemas: { path: vg.VariantGroupPath, response: vg.VariantGroupView } }),
  row({ operationId: 'updateVariantGroup', method: 'PATCH', path: '/api/v1/variant-groups/{id}', permission: 'variant_groups.update', handler: 'functions/variant-groups/update.ts', area: 'menu', schemas: { path: vg.VariantGroupPath, body: vg.UpdateVariantGroupBody, response: vg.VariantGroupView } }),
  row({ operationId: 'deleteVariantGroup', method: 'DELETE', path: '/api/v1/variant-groups/{id}', permission: 'variant_groups.delete', handler: 'functions/variant-groups/delete.ts', area: 'menu', schemas: { path: vg.VariantGroupPath, response: vg.VariantGroupView } }),
  row({ operationId: 'createVariant', method: 'POST', path: '/api/v1/variant-groups/{id}/variants', permission: 'variant_groups.update', handler: 'functions/variants/create.ts', area: 'menu', schemas: { path: vg.VariantGroupPath, body: vg.VariantBody, response: vg.VariantView } }),
  row({ operationId: 'updateVariant', method: 'PATCH', path: '/api/v1/variants/{variantId}', permission: 'variant_groups.update', handler: 'functions/variants/update.ts', area: 'menu', schemas: { path: vg.VariantPath, body: vg.UpdateVariantBody, response: vg.VariantView } }),
  row({ operationId: 'deleteVariant', method: 'DELETE', path: '/api/v1/variants/{variantId}', permission: 'variant_groups.update', handler: 'functions/variants/delete.ts', area: 'menu', schemas: { path: vg.VariantPath, response: vg.VariantView } }),
  row({ operationId: 'linkVariant', method: 'POST', path: '/api/v1/variants/{variantId}/link', permission: 'variant_groups.update', handler: 'functions/variants/link.ts', area: 'menu', schemas: { path: vg.VariantPath, body: vg.LinkVariantBody, response: vg.VariantView } }),
  row({ operationId: 'unlinkVariant', method: 'POST', path: '/api/v1/variants/{variantId}/unlink', permission: 'variant_groups.update', handler: 'functions/variants/unlink.ts', area: 'menu', schemas: { path: vg.VariantPath, response: vg.VariantView } }),

  row({ operationId: 'createCustomTag', method: 'POST', path: '/api/v1/custom-tags', permission: 'custom_tags.create', handler: 'functions/custom-tags/create.ts', area: 'menu', schemas: { body: tags.CreateCustomTagBody, response: tags.CustomTagView } }),
  row({ operationId: 'linkCustomTag', method: 'POST', path: '/api/v1/custom-tags/link', permission: 'custom_tags.update', handler: 'functions/custom-tags/link.ts', area: 'menu', schemas: { body: tags.CustomTagLinkBody, response: items.ItemView } }),
  row({ operationId: 'unlinkCustomTag', method: 'POST', path: '/api/v1/custom-tags/unlink', permission: 'custom_tags.update', handler: 'functions/custom-tags/unlink.ts', area: 'menu', schemas: { body: tags.CustomTagLinkBody, response: items.ItemView } }),
  row({ operationId: 'searchCustomTags', method: 'GET', path: '/api/v1/custom-tags/search', permission: 'custom_tags.read', handler: 'functions/custom-tags/search.ts', area: 'menu', schemas: { query: tags.SearchCustomTagsQuery, response: tags.CustomTagListView } }),
] as const;
