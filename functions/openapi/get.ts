import { documentHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/getOpenApiDocument';
import { openApiJson } from '../../shared/openapi/generated/document';

export const handler = documentHandler(operation, async () => openApiJson);
