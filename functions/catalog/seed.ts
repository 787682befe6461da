/**
 * Seeds the built-in permission catalog on a deployed stage: run by a CloudFormation trigger once
 * the table exists, and again at every deploy that changes this function (a new or changed
 * built-in changes its bundle; infra/permission-catalog.ts). Idempotent: a second run writes
 * nothing, and permissions operators added stay as they are (docs/onboarding.md). A failure fails
 * the deploy.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { syncBuiltInPermissions, type CatalogSync } from '../../shared/domain/permissions';
import { traced } from '../../shared/runtime/tracing';

const logger = new Logger({ serviceName: 'brigade' });

export const handler = traced(async (): Promise<CatalogSync> => {
  const synced = await syncBuiltInPermissions();
  logger.info('permission catalog synced', { added: synced.added.length, updated: synced.updated });
  return synced;
});
