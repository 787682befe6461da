/** The generated operation modules stay in step with the route table, and each handler uses its own. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { generateOperations, operationsDir } from '../../bin/tools/gen-operations';
import type { Operation } from '../../shared/http/operation';
import { eventValidator } from '../../shared/http/validation';
import { routes, runtimeFields, type Route } from '../../shared/routes';

describe('generated operation modules', () => {
  const generated = generateOperations();

  it('match the route table (run `npm run gen:operations` after changing a row or a schema)', () => {
    expect(
      readdirSync(operationsDir)
        .filter((f) => f.endsWith('.ts'))
        .sort(),
    ).toEqual([...generated.keys()].sort());
    for (const [file, source] of generated) expect(readFileSync(join(operationsDir, file), 'utf8'), file).toBe(source);
  });

  it("carry their row's runtime fields and a validator per schema", async () => {
    for (const r of routes as readonly Route[]) {
      const { operation } = (await import(join(operationsDir, `${r.operationId}.ts`))) as { operation: Operation };
      const { validators, ...fields } = operation;
      expect(fields).toEqual(Object.fromEntries(runtimeFields.filter((f) => r[f] !== undefined).map((f) => [f, r[f]])));
      const requestParts = Object.keys(r.schemas).filter((part) => part !== 'response');
      expect(Object.keys(validators).sort(), r.operationId).toEqual(requestParts.sort());
    }
  });

  it('are each imported by the handler of their own operation', () => {
    for (const r of routes as readonly Route[]) {
      expect(existsSync(r.handler), r.handler).toBe(true);
      const imports = [...readFileSync(r.handler, 'utf8').matchAll(/shared\/http\/operations\/(\w+)'/g)].map(
        (m) => m[1],
      );
      expect(imports, r.handler).toEqual([r.operationId]);
    }
  });
});

describe('absent bodies', () => {
  const compile = (schema: object) => new Ajv({ useDefaults: true }).compile(schema);

  it('are empty bodies when the schema requires nothing (defaults applied)', () => {
    const validate = eventValidator({
      body: compile({
        type: 'object',
        properties: { closeTab: { type: 'boolean', default: true } },
        additionalProperties: false,
      }),
    })!;
    const event: { body?: unknown } = {};
    expect(validate(event)).toBe(true);
    expect(event.body).toEqual({ closeTab: true });
  });

  it('are refused when the schema requires a field', () => {
    const validate = eventValidator({
      body: compile({ type: 'object', required: ['title'], properties: { title: { type: 'string' } } }),
    })!;
    expect(validate({})).toBe(false);
    expect(validate.errors).toEqual([{ path: '/', message: 'a JSON body is required' }]);
  });
});
