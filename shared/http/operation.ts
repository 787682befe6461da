/**
 * What a handler names: its operation's generated module (shared/http/operations/<operationId>.ts,
 * written by `npm run gen:operations`), which holds the row's runtime fields and its precompiled
 * validators. The request's body, query and path types are the `Static` types of the row's
 * TypeBox schemas, looked up by the operationId through a type-only import of the route table:
 * it is erased from the JavaScript, so a handler's bundle holds its own row, not the table.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { OperationId, RouteRuntime, RouteSchemas, routes } from '../routes';
import type { ApiRequest, PublicRequest } from './request';
import type { RouteValidators } from './validation';

/** The `operation` export of a generated module (or a hand-made one, like the fallback's). */
export interface Operation<Id extends string = string> extends RouteRuntime {
  readonly operationId: Id;
  readonly validators: RouteValidators;
}

type Row<Id extends OperationId> = Extract<(typeof routes)[number], { operationId: Id }>;

/** One part of the request, typed by the row's schema for it; `unknown` where the row has none. */
type Part<Id extends string, K extends keyof RouteSchemas> = Id extends OperationId
  ? Row<Id>['schemas'] extends Record<K, infer S extends TSchema>
    ? Static<S>
    : unknown
  : unknown;

/** The validated request of an operation that needs a credential. */
export type OperationRequest<Op extends Operation> = ApiRequest<
  Part<Op['operationId'], 'body'>,
  Part<Op['operationId'], 'query'>,
  Part<Op['operationId'], 'path'>
>;

/** The validated request of a public operation: the principal may be absent. */
export type PublicOperationRequest<Op extends Operation> = PublicRequest<
  Part<Op['operationId'], 'body'>,
  Part<Op['operationId'], 'query'>,
  Part<Op['operationId'], 'path'>
>;
