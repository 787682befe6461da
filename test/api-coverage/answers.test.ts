/**
 * Every answer the API suite got matched the OpenAPI description (shared/openapi/document.ts):
 * its status is one the operation describes, a success its envelope and response schema (with
 * `meta.pagination` exactly on paged lists), an error the error envelope with its status's code,
 * each with the rate-limit headers. The stage checked each answer as it served it, however the
 * test asked (test/support/answer-log.ts); this reads the record. Like routes.test.ts, it needs
 * the api project in the same run.
 */
import { existsSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { routes, type Route } from '../../shared/routes';
import { answerTotals, readAnswerLog } from '../support/answer-log';

const log = () => {
  const file = inject('answerLog');
  expect(file && existsSync(file), 'no answer record: run this project together with the api project (npm test)').toBe(
    true,
  );
  return readAnswerLog(file);
};

describe('answers of the API suite against the OpenAPI description', () => {
  it('all matched', () => {
    const record = log();
    expect(
      record.problems,
      `${record.problemCount} answers did not match (the first ${record.problems.length} shown)`,
    ).toEqual([]);
    expect(record.problemCount).toBe(0);
  });

  it('include a success answer with typed data for every operation that has a response schema', () => {
    const record = log();
    const untyped = (routes as readonly Route[])
      .filter((r) => r.schemas.response !== undefined && !(record.operations[r.operationId]?.typed ?? 0))
      .map((r) => r.operationId);
    expect(untyped).toEqual([]);
    expect(answerTotals(record).answers).toBeGreaterThan(0);
  });
});
