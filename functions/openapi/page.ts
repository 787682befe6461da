import { documentHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/getDocsPage';
import { docsPage } from '../../shared/openapi/docsPage';

export const handler = documentHandler(operation, async () => docsPage());
