/** The parameters step (shared/http/chain/parameters.ts). */
import { describe, expect, it } from 'vitest';
import { parameters } from '../../../shared/http/chain/parameters';
import { chainRequest } from '../../support/chain';

describe('parameters', () => {
  it("turns API Gateway's null query and path into objects, and keeps what was sent", () => {
    const absent = chainRequest({ queryStringParameters: null, pathParameters: null });
    parameters().before!(absent);
    expect(absent.event.queryStringParameters).toEqual({});
    expect(absent.event.pathParameters).toEqual({});
    const sent = chainRequest({ queryStringParameters: { page: '2' }, pathParameters: { id: 'x' } });
    parameters().before!(sent);
    expect(sent.event.queryStringParameters).toEqual({ page: '2' });
    expect(sent.event.pathParameters).toEqual({ id: 'x' });
  });
});
