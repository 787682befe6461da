/** The usage-plan port: the API Gateway adapter (SDK mocked) and the local stage's adapter. */
import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
} from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config';
import { apiGatewayUsagePlans } from '../../shared/ports/apiGatewayUsagePlans';
import { setUsagePlans, usagePlans } from '../../shared/ports/usagePlans';

const gateway = mockClient(APIGatewayClient);
const plans = { standard: 'plan-std', premium: 'plan-prem', unlimited: 'plan-unl' };
const adapter = () => apiGatewayUsagePlans('dev', plans);
const failure = () => Object.assign(new Error('Too Many Requests'), { name: 'TooManyRequestsException' });

beforeEach(() => {
  gateway.reset();
  gateway.on(CreateApiKeyCommand).resolves({ id: 'gw-key-1' });
});

describe('API Gateway usage plans', () => {
  it("attaches a new key: an enabled gateway key with a 40-character value, in its tier's plan", async () => {
    const usageKey = await adapter().attach('abcdefghij12', 'premium');
    const created = gateway.commandCalls(CreateApiKeyCommand)[0]!.args[0].input;
    expect(created).toEqual({
      name: 'brigade-dev-abcdefghij12',
      enabled: true,
      value: expect.stringMatching(/^[A-Za-z0-9]{40}$/),
    });
    expect(usageKey).toEqual({ id: 'gw-key-1', value: created.value });
    expect(gateway.commandCalls(CreateUsagePlanKeyCommand)[0]!.args[0].input).toEqual({
      usagePlanId: 'plan-prem',
      keyId: 'gw-key-1',
      keyType: 'API_KEY',
    });
  });

  it('deletes the gateway key again when it cannot join the plan, and answers 503', async () => {
    gateway.on(CreateUsagePlanKeyCommand).rejects(failure());
    await expect(adapter().attach('abcdefghij12', 'standard')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(gateway.commandCalls(DeleteApiKeyCommand)[0]!.args[0].input).toEqual({ apiKey: 'gw-key-1' });
  });

  it('answers 503 when the gateway key cannot be created', async () => {
    gateway.on(CreateApiKeyCommand).rejects(failure());
    await expect(adapter().attach('abcdefghij12', 'standard')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(gateway.commandCalls(CreateUsagePlanKeyCommand)).toHaveLength(0);
  });

  it('moves a key between tiers: out of the old plan, into the new one', async () => {
    await adapter().move({ id: 'gw-key-1', value: 'v' }, 'standard', 'unlimited');
    expect(gateway.commandCalls(DeleteUsagePlanKeyCommand)[0]!.args[0].input).toEqual({
      usagePlanId: 'plan-std',
      keyId: 'gw-key-1',
    });
    expect(gateway.commandCalls(CreateUsagePlanKeyCommand)[0]!.args[0].input).toEqual({
      usagePlanId: 'plan-unl',
      keyId: 'gw-key-1',
      keyType: 'API_KEY',
    });
  });

  it('puts a key back in its old plan when the new one refuses it', async () => {
    gateway.on(CreateUsagePlanKeyCommand, { usagePlanId: 'plan-unl' }).rejects(failure());
    await expect(adapter().move({ id: 'gw-key-1', value: 'v' }, 'standard', 'unlimited')).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    expect(gateway.commandCalls(CreateUsagePlanKeyCommand).map((c) => c.args[0].input.usagePlanId)).toEqual([
      'plan-unl',
      'plan-std',
    ]);
  });

  it('detaches by deleting the gateway key, and never throws', async () => {
    await adapter().detach({ id: 'gw-key-1', value: 'v' });
    expect(gateway.commandCalls(DeleteApiKeyCommand)[0]!.args[0].input).toEqual({ apiKey: 'gw-key-1' });
    gateway.on(DeleteApiKeyCommand).rejects(failure());
    await expect(adapter().detach({ id: 'gw-key-1', value: 'v' })).resolves.toBeUndefined();
  });
});

describe('the local stage', () => {
  it('has no gateway: nothing is attached and the SDK is never called', async () => {
    process.env.STAGE = 'local';
    resetConfig();
    setUsagePlans(undefined);
    const local = await usagePlans();
    expect(await local.attach('abcdefghij12', 'premium')).toBeNull();
    await local.move({ id: 'x', value: 'y' }, 'standard', 'premium');
    await local.detach({ id: 'x', value: 'y' });
    expect(gateway.calls()).toHaveLength(0);
  });
});
