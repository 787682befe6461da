/** What GET /widget/v1.js answers (docs/widget.md): the widget's script and the headers that go with it. */
import { widgetScript, widgetVersion } from './generated/widget';

/** The script changes only with a new version of the path or a deploy: caches may keep it an hour. */
export const widgetAnswer = () => ({
  body: widgetScript(),
  headers: { 'Cache-Control': 'public, max-age=3600', 'X-Widget-Version': widgetVersion },
});
