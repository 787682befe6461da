import { Type } from './typebox';

/** GET /openapi.json answers the OpenAPI 3.1 document itself (docs/openapi.md). */
export const OpenApiDocument = Type.Object(
  {
    openapi: Type.String({ pattern: '^3\\.1\\.' }),
    info: Type.Object({ title: Type.String(), version: Type.String() }),
    paths: Type.Record(Type.String(), Type.Object({})),
  },
  { description: 'an OpenAPI 3.1 document' },
);
