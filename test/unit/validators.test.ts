/** The precompiled validators stay in step with the route table, and each handler uses its own. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { generateValidators, validatorsDir } from '../../bin/tools/gen-validators';
import { eventValidator } from '../../shared/http/validation';
import { routes, type Route } from '../../shared/routes';

describe('generated validators', () => {
  const generated = generateValidators();

  it('match the schemas of shared/routes.ts (run `npm run gen:validators` after changing a schema)', () => {
    expect(readdirSync(validatorsDir).sort()).toEqual([...generated.keys()].sort());
    for (const [file, source] of generated) expect(readFileSync(join(validatorsDir, file), 'utf8'), file).toBe(source);
  });

  it('are wired into the handler of their own operation', () => {
    for (const r of routes as readonly Route[]) {
      const handler = readFileSync(r.handler, 'utf8');
      const imports = [...handler.matchAll(/shared\/http\/validators\/(\w+)'/g)].map((m) => m[1]);
      expect(imports, r.handler).toEqual(generated.has(`${r.operationId}.ts`) ? [r.operationId] : []);
      expect(existsSync(r.handler)).toBe(true);
    }
  });
});

describe('absent bodies', () => {
  const compile = (schema: object) => new Ajv({ useDefaults: true }).compile(schema);

  it('are empty bodies when the schema requires nothing (defaults applied)', () => {
    const validate = eventValidator({ body: compile({ type: 'object', properties: { closeTab: { type: 'boolean', default: true } }, additionalProperties: false }) })!;
    const event: { body?: unknown } = {};
    expect(validate(event)).toBe(true);
    expect(event.body).toEqual({ closeTab: true });
  });

  it('are refused when the schema requires a field', () => {
    const validate = eventValidator({ body: compile({ type: 'object', required: ['title'], properties: { title: { type: 'string' } } }) })!;
    expect(validate({})).toBe(false);
    expect(validate.errors).toEqual([{ path: '/', message: 'a JSON body is required' }]);
  });
});
