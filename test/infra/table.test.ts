/**
 * The table is built from shared/data/table.ts (keys, indexes, TTL, stream), and what each stage
 * keeps when things are deleted.
 */
import { describe, expect, it } from 'vitest';
import { table } from '../../shared/data/table';
import { synthesize } from './synth';

const tableOf = (stage: string) => {
  const synth = synthesize({ context: { stage } });
  const [resource] = Object.values(synth.template(synth.stack).findResources('AWS::DynamoDB::Table'));
  return resource!;
};

describe('table', () => {
  const { Properties: props } = tableOf('dev');

  it('has the keys and both overloaded indexes of shared/data/table.ts', () => {
    expect(props.KeySchema).toEqual([
      { AttributeName: table.partitionKey, KeyType: 'HASH' },
      { AttributeName: table.sortKey, KeyType: 'RANGE' },
    ]);
    expect(props.GlobalSecondaryIndexes).toEqual(
      table.indexes.map((i) => ({
        IndexName: i.name,
        KeySchema: [
          { AttributeName: i.partitionKey, KeyType: 'HASH' },
          { AttributeName: i.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
    const keys = [table.partitionKey, table.sortKey, ...table.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
    expect(props.AttributeDefinitions).toEqual(
      expect.arrayContaining(keys.map((name) => ({ AttributeName: name, AttributeType: 'S' }))),
    );
    expect(props.AttributeDefinitions).toHaveLength(keys.length);
  });

  it('is on demand, encrypted, recoverable to the second, expires items by ttl and streams new images', () => {
    expect(props).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      SSESpecification: { SSEEnabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      StreamSpecification: { StreamViewType: table.streamView },
    });
    expect(table.ttlAttribute).toBe('ttl');
  });
});

describe('stages', () => {
  it('keeps the production table: retained and protected from deletion', () => {
    const prod = tableOf('prod');
    expect(prod).toMatchObject({
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: { DeletionProtectionEnabled: true },
    });
  });

  it('lets a dev stack be destroyed with its table', () => {
    const dev = tableOf('dev');
    expect(dev).toMatchObject({ DeletionPolicy: 'Delete' });
    expect(dev.Properties.DeletionProtectionEnabled).toBeFalsy();
  });

  it('names the stack and API after the stage', () => {
    const synth = synthesize({ context: { stage: 'prod' } });
    expect(synth.stack.stackName).toBe('Brigade-prod');
    synth.template(synth.stack).hasResourceProperties('AWS::ApiGateway::Stage', { StageName: 'prod' });
  });

  it('refuses any other stage', () => {
    expect(() => synthesize({ context: { stage: 'staging' } })).toThrow(/stage must be one of dev, prod/);
  });

  it.each([
    ['an issuer', { jwtIssuer: '', jwtAudience: 'https://api.example/' }, /jwtIssuer is empty/],
    ['an audience', { jwtIssuer: 'https://id.example/', jwtAudience: ' ' }, /jwtAudience is empty/],
    ['an issuer and an audience', {}, /jwtIssuer and jwtAudience are empty/],
  ])('fails the synth of a stage that takes Bearer tokens from a JWKS without %s', (_name, binding, message) => {
    expect(() => synthesize({ context: { jwksUrl: 'https://id.example/jwks.json', ...binding } })).toThrow(message);
    expect(() => synthesize({ context: { jwksUrl: 'https://id.example/jwks.json', ...binding } })).toThrow(
      /bound to this stage's issuer and this API's audience/,
    );
  });

  it('refuses an API key cap that is not a positive integer', () => {
    expect(() => synthesize({ context: { apiKeysPerCompany: 0 } })).toThrow(
      /apiKeysPerCompany must be a positive integer/,
    );
  });

  it('hands the context settings to every function', () => {
    const synth = synthesize({
      context: {
        internalOperatorIds: '7,9',
        jwksUrl: 'https://id.example/jwks.json',
        jwtIssuer: 'https://id.example/',
        jwtAudience: 'https://api.example/',
        apiKeysPerCompany: 20,
      },
    });
    const functions = synth.stacks.flatMap((s) =>
      Object.values(synth.template(s).findResources('AWS::Lambda::Function')),
    );
    const brigade = functions.filter((f) => String(f.Properties.FunctionName).startsWith('brigade-dev-'));
    expect(brigade.length).toBeGreaterThan(1);
    for (const fn of brigade) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        STAGE: 'dev',
        TABLE_NAME: expect.anything(),
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'brigade',
        INTERNAL_OPERATOR_IDS: '7,9',
        JWKS_URL: 'https://id.example/jwks.json',
        JWT_ISSUER: 'https://id.example/',
        JWT_AUDIENCE: 'https://api.example/',
        API_KEYS_PER_COMPANY: '20',
      });
    }
  });
});
