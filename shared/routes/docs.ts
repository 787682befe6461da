import { OpenApiDocument } from '../schemas/docs';
import { row } from './route';

/** The API's description of itself (docs/openapi.md). */
export const docsRoutes = [
  row({
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    permission: null,
    handler: 'functions/openapi/get.ts',
    area: 'docs',
    schemas: { response: OpenApiDocument },
    bare: true,
    summary: 'This description (OpenAPI 3.1)',
    description: 'Generated from the route table (docs/openapi.md); the same document `npm run openapi` writes.',
  }),
] as const;
