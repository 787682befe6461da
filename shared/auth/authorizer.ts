/**
 * The API Gateway REQUEST authorizer's work (functions/authorizer.ts is its Lambda entry; the local
 * stage calls it in front of a handler as API Gateway does, bin/local/gateway.ts). It verifies the
 * caller's credential and hands the principal to the handlers (shared/http/chain/credential.ts).
 * A credential that does not verify is let through as anonymous so the handler answers the 401
 * itself, in the envelope and with the rate-limit headers; only a failure to check (database
 * unavailable) fails the request (503).
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authenticate } from './authenticate';
import type { AuthorizerContext, Tier } from './principal';
import { AppError } from '../errors';

/** Usage-plan key values per tier and for anonymous callers (infra/usage-tiers.ts, passed in USAGE_KEYS). */
type UsageKeys = Record<Tier | 'anonymous', string>;
let usageKeys: UsageKeys | undefined;
const usageKey = (name: keyof UsageKeys): string =>
  (usageKeys ??= JSON.parse(process.env.USAGE_KEYS ?? '{}') as UsageKeys)[name];

/**
 * Allows every method of the stage: the decision depends on the credential only (permissions are
 * checked by the handler), so it would hold for any method if API Gateway ever cached it.
 */
function allow(
  methodArn: string,
  principalId: string,
  context: AuthorizerContext,
  usageIdentifierKey: string,
): APIGatewayAuthorizerResult {
  const [apiArn, stage] = methodArn.split('/'); // arn:aws:execute-api:{region}:{account}:{apiId}/{stage}/{method}/{path}
  return {
    principalId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${apiArn}/${stage}/*/*` }],
    },
    context: { ...context },
    usageIdentifierKey,
  };
}

export async function authorizeRequest(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const headers = Object.fromEntries(
    Object.entries(event.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  try {
    // The authorizer writes a key's verifier once bcrypt verified it (its role may: infra/data-access.ts).
    const principal = await authenticate(headers, Date.now(), { recordVerifier: true });
    return allow(
      event.methodArn,
      principal.rateSubject,
      { principal: JSON.stringify(principal) },
      principal.usageKey ?? usageKey(principal.tier),
    );
  } catch (err) {
    // Anything but "this credential is not valid" (UNAVAILABLE, or a bug) must not become a 401.
    if (!(err instanceof AppError && err.code === 'UNAUTHENTICATED')) throw err;
    return allow(event.methodArn, 'anonymous', { anonymous: 'true' }, usageKey('anonymous'));
  }
}
