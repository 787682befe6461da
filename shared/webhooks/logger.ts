/** The pipeline's structured log (Powertools): JSON lines in CloudWatch, on stdout locally. */
import { Logger } from '@aws-lambda-powertools/logger';

export const pipelineLogger = new Logger({ serviceName: 'brigade' });
