import { documentHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/getDocsScript';
import { scalarScript } from '../../shared/openapi/generated/scalar';

export const handler = documentHandler(operation, async () => scalarScript());
