/** The schema step (shared/http/chain/schema.ts): the route's precompiled validators through @middy/validator. */
import { describe, expect, it } from 'vitest';
import { asAppError } from '../../../shared/http/chain/errors';
import { schema } from '../../../shared/http/chain/schema';
import type { ChainRequest } from '../../../shared/http/chain/state';
import { operation as createCoursing } from '../../../shared/http/operations/createCoursing';
import { operation as listCoursings } from '../../../shared/http/operations/listCoursings';
import { chainRequest } from '../../support/chain';

const check = async (steps: ReturnType<typeof schema>, request: ChainRequest) => {
  for (const step of steps) await step.before!(request);
  return request;
};

describe('schema', () => {
  it('is no step for a route without schemas', () => {
    expect(schema({})).toEqual([]);
  });

  it('coerces the query from text and fills its defaults', async () => {
    const request = chainRequest({ queryStringParameters: { locationId: '101' }, pathParameters: {} });
    await check(schema(listCoursings.validators), request);
    expect(request.event.queryStringParameters).toMatchObject({ locationId: 101, page: 1, limit: 20 });
  });

  it('answers 400 listing every field problem of the body', async () => {
    const request = chainRequest({
      httpMethod: 'POST',
      body: { title: '', order: 101, extra: 1 },
      queryStringParameters: {},
      pathParameters: {},
    });
    const error = await check(schema(createCoursing.validators), request).then(
      () => undefined,
      (err: unknown) => asAppError(err, 'req-1'),
    );
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(error?.details).toEqual(
      expect.arrayContaining([
        { path: '/locationId', message: 'is required' },
        { path: '/title', message: expect.any(String) },
        { path: '/order', message: expect.stringContaining('100') },
        { path: '/extra', message: 'is not an accepted field' },
      ]),
    );
  });
});
