import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { repairEmptyMaps } from '../../bin/local/pipeline';

describe('local stream images', () => {
  it("turn DynamoDB Local's bare {} back into empty maps, at any depth, so they unmarshall", () => {
    // What DynamoDB Local's stream actually sends for {m: {}, l: [], nested: {e: {}}, list: [{}]}.
    const image = { pk: { S: 'a' }, m: {}, l: { L: [] }, nested: { M: { e: {} } }, list: { L: [{}] } } as never;
    expect(() => unmarshall(image)).toThrow();
    expect(unmarshall(repairEmptyMaps(image))).toEqual({ pk: 'a', m: {}, l: [], nested: { e: {} }, list: [{}] });
  });

  it('leaves well-formed images as they are', () => {
    const image = { pk: { S: 'a' }, n: { N: '1' }, m: { M: { x: { BOOL: true } } } };
    expect(repairEmptyMaps(image)).toEqual(image);
  });
});
