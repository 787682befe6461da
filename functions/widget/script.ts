import { documentHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/getBookingWidget';
import { widgetAnswer } from '../../shared/widget/answer';

export const handler = documentHandler(operation, async () => widgetAnswer());
