import { documentHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/getBookingWidget';
import { widgetScript, widgetVersion } from '../../shared/widget/generated/widget';

/** The script changes only with a new version of the path or a deploy: caches may keep it an hour. */
export const handler = documentHandler(operation, async () => ({
  body: widgetScript(),
  headers: { 'Cache-Control': 'public, max-age=3600', 'X-Widget-Version': widgetVersion },
}));
