import type { Principal } from '../auth/principal';

/** What a domain call gets from the chain: validated input and the verified caller. */
export interface ApiRequest<Body = unknown, Query = unknown, Path = unknown> {
  principal: Principal;
  body: Body;
  query: Query;
  path: Path;
  headers: Record<string, string | undefined>;
  requestId: string;
  sourceIp: string;
  method: string;
  rawPath: string;
}

/** A public operation's request: there may be no principal. */
export type PublicRequest<Body = unknown, Query = unknown, Path = unknown> = Omit<
  ApiRequest<Body, Query, Path>,
  'principal'
> & {
  principal: Principal | undefined;
};
