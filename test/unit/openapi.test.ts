/**
 * The OpenAPI description (shared/openapi/document.ts): a valid OpenAPI 3.1 document, one
 * operation per row of the route table and nothing else, every operation typed (a response schema,
 * an example for a body), and the module GET /openapi.json serves in step with the table.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { documentModule, documentModuleSource } from '../../bin/tools/gen-openapi';
import { API_VERSION } from '../../shared/config';
import { statusOf } from '../../shared/errors';
import { eventNames } from '../../shared/events/catalog';
import {
  errorCodesOf,
  isEnveloped,
  isPaged,
  openApiDocument,
  openApiJson,
  summaryOf,
  titleConflicts,
  type Json,
} from '../../shared/openapi/document';
import { routes, type Route } from '../../shared/routes';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule;
const all = routes as readonly Route[];
type Operation = Json & {
  operationId: string;
  summary: string;
  description: string;
  'x-permission': string | null;
  security: unknown[];
  parameters: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
};
const document = openApiDocument() as Json & {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, unknown>;
  info: { version: string };
};
const operationOf = (r: Route) => document.paths[r.path]![r.method.toLowerCase()]!;

/**
 * Areas whose response schemas and body examples another branch is writing. The lead
 * empties this list when that branch lands; from then on every row must have both.
 */

describe('the OpenAPI document', () => {
  it('validates against the OpenAPI 3.1 schema with no errors', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(openApiJson()));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes exactly the operations of the route table', () => {
    const described = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(described.sort()).toEqual(all.map((r) => `${r.method} ${r.path}`).sort());
    expect(new Set(described).size).toBe(all.length);
  });

  it("gives each operation its row's operationId, a summary, its permission and its credentials", () => {
    for (const r of all) {
      const op = operationOf(r);
      expect(op.operationId).toBe(r.operationId);
      expect(op.summary).toBe(summaryOf(r));
      expect(op.summary.length, r.operationId).toBeGreaterThan(0);
      expect(op['x-permission'], r.operationId).toBe(r.permission);
      if (r.permission === null) {
        expect(op.security, r.operationId).toEqual([]);
        expect(op.description).toMatch(/^Public|\n\nPublic/);
      } else {
        expect(op.security, r.operationId).toEqual([{ ApiKey: [] }, { BearerJwt: [] }]);
        expect(op.description, r.operationId).toContain(`Permission: \`${r.permission}\``);
      }
    }
  });

  it('names every path and query parameter of a row, path parameters required', () => {
    for (const r of all) {
      const params = operationOf(r).parameters.filter((p) => p.in === 'path' || p.in === 'query');
      const expected = (['path', 'query'] as const).flatMap((part) =>
        Object.keys((r.schemas[part] as { properties?: object } | undefined)?.properties ?? {}).map(
          (name) => `${part}:${name}`,
        ),
      );
      expect(params.map((p) => `${p.in}:${p.name}`).sort(), r.operationId).toEqual(expected.sort());
      for (const name of r.path.match(/\{(\w+)\}/g) ?? [])
        expect(
          params.some((p) => p.in === 'path' && `{${p.name}}` === name && p.required === true),
          `${r.operationId} ${name}`,
        ).toBe(true);
    }
  });

  it('describes the errors of each operation by reference to the error envelope with their codes, and rate-limit headers on every answer', () => {
    for (const r of all) {
      const responses = operationOf(r).responses;
      for (const code of errorCodesOf(r))
        expect(responses[String(statusOf[code])], `${r.operationId} ${code}`).toEqual({
          $ref: `#/components/responses/${code}`,
        });
      expect(responses.default).toEqual({ $ref: '#/components/responses/INTERNAL' });
      expect(Object.keys((responses['200']!.headers ?? {}) as object)).toEqual(
        expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
      );
    }
    const components = document.components as { responses: Record<string, { headers: object }> };
    expect(Object.keys(components.responses.RATE_LIMITED!.headers)).toEqual(
      expect.arrayContaining(['Retry-After', 'X-RateLimit-Reset']),
    );
  });

  it('puts meta.pagination in the success envelope of every paged list', () => {
    const paged = all.filter(isPaged);
    expect(paged.length).toBeGreaterThan(20);
    for (const r of all) {
      if (!isEnveloped(r)) continue;
      const schema = (
        operationOf(r).responses['200']!.content as Record<
          string,
          { schema: { properties: { meta: { $ref: string } } } }
        >
      )['application/json']!.schema;
      expect(schema.properties.meta.$ref, r.operationId).toBe(
        isPaged(r) ? '#/components/schemas/PagedMeta' : '#/components/schemas/Meta',
      );
    }
  });

  it('has info.version the API version webhooks carry, and each event of the catalog as a webhook', () => {
    expect(document.info.version).toBe(API_VERSION);
    expect(document.info.version).toMatch(/^\d{8}-\d{4}-\d+$/);
    expect(Object.keys(document.webhooks).sort()).toEqual([...eventNames].sort());
  });

  it('names each titled schema once in components (no two different schemas share a title)', () => {
    expect(titleConflicts()).toEqual([]);
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining(['Location', 'ApiKey', 'WebhookSubscription', 'Error_NOT_FOUND', 'Pagination']),
    );
  });

  it('is what the served module holds (run `npm run gen:operations` or `npm run openapi` after changing a row or a schema)', () => {
    expect(readFileSync(documentModule, 'utf8')).toBe(documentModuleSource());
  });
});

describe('every operation typed', () => {
  it('has a response schema', () => {
    // A file download has its media types instead (the export), a page or script its media type (the docs page).
    expect(all.filter((r) => !r.schemas.response && !r.download && !r.asset).map((r) => r.operationId)).toEqual([]);
  });

  it('has an example for every request body', () => {
    expect(
      all
        .filter((r) => r.schemas.body && !((r.schemas.body as { examples?: unknown[] }).examples?.length ?? 0))
        .map((r) => r.operationId),
    ).toEqual([]);
  });

  it('has body examples its own body schema accepts', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    for (const r of all) {
      const examples = (r.schemas.body as { examples?: unknown[] } | undefined)?.examples ?? [];
      const validate = r.schemas.body && ajv.compile(r.schemas.body);
      for (const example of examples)
        expect(
          validate!(structuredClone(example)) ? [] : validate!.errors,
          `${r.operationId} example ${JSON.stringify(example)}`,
        ).toEqual([]);
    }
  });

  it('has response schemas whose objects name every property (additionalProperties: false)', () => {
    const loose: string[] = [];
    const walk = (schema: unknown, at: string) => {
      if (!schema || typeof schema !== 'object') return;
      const s = schema as Record<string, unknown>;
      if (s.type === 'object' && s.properties && s.additionalProperties !== false) loose.push(at);
      for (const [key, value] of Object.entries(s)) if (typeof value === 'object') walk(value, `${at}/${key}`);
    };
    for (const r of all)
      if (r.schemas.response && !r.bare) walk(JSON.parse(JSON.stringify(r.schemas.response)), r.operationId);
    expect(loose).toEqual([]);
  });
});
