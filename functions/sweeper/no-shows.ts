/**
 * The no-show sweeper, run by a schedule (EventBridge, every 5 minutes; the local stage runs the
 * same sweep on an interval): confirmed and checked-in bookings whose autoNoShowDelayMinutes have
 * passed since their start become no-shows, and waitlist offers whose hold has lapsed expire
 * (docs/waitlist.md), each in its own transaction with its event. A no-show sweep that fails
 * raises an alert at the location of the booking it failed on (docs/alerts.md) and fails the run.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { watchedNoShowSweep } from '../../shared/domain/sweeps';
import { sweepLapsedOffers } from '../../shared/domain/waitlist/operations';
import { traced } from '../../shared/runtime/tracing';

const logger = new Logger({ serviceName: 'brigade' });

export const handler = traced(async (): Promise<{ marked: number; expired: number }> => {
  const marked = await watchedNoShowSweep();
  const expired = await sweepLapsedOffers();
  logger.info('no-show sweep', { marked, expired });
  return { marked, expired };
});
