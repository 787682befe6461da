/**
 * Seeds the built-in permission catalog into the table the environment names, as a deploy does
 * (functions/catalog/seed.ts). dynamodb-setup.ts runs it in a process of its own, so none of the
 * data layer's module state (its client, its memory of the catalog) is left in the Vitest process,
 * where the api suite's local stage runs.
 */
import { syncBuiltInPermissions } from '../../shared/domain/permissions';

await syncBuiltInPermissions();
