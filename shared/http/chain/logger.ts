/** The HTTP functions' logger: the responder adds each request's `requestId` to every line it writes. */
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: 'brigade' });
