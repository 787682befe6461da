/**
 * The dependency rules of docs/layering.md, enforced. Each rule is its own test,
 * and its failure names every offending import. The checker proves itself first on a small tree
 * that breaks each rule once (test/fixtures/layering/).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLayering, describeViolations, importGraph, rules, type Rule, type Violation } from '../support/layering';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/layering/', import.meta.url));

describe('the layering checker, on a tree that breaks every rule once', () => {
  it('reports exactly the forbidden imports and the cycle, naming each edge', () => {
    const found = checkLayering(importGraph(fixture));
    expect(found).toEqual<Violation[]>([
      // a.ts imports b.ts only as a type, b.ts imports a.ts only dynamically: still a cycle
      { rule: 'cycles', from: 'shared/domain/a.ts', to: 'shared/domain/b.ts' },
      { rule: 'cycles', from: 'shared/domain/b.ts', to: 'shared/domain/a.ts' },
      { rule: 'data', from: 'shared/data/items.ts', to: 'shared/domain/rules.ts' },
      { rule: 'domain', from: 'shared/domain/rules.ts', to: 'shared/http/handler.ts' },
      // test/handlers.ts imports the same handler, and may
      { rule: 'functions', from: 'bin/local.ts', to: 'functions/items/get.ts' },
      // get.ts imports the route table too, but only as types
      { rule: 'handlers', from: 'functions/items/list.ts', to: 'shared/routes/index.ts' },
      // infra/stack.ts may import shared/routes and shared/data/table.ts
      { rule: 'infra', from: 'infra/stack.ts', to: 'shared/domain/items.ts' },
      // reached through shared/routes; table.ts's `import type` of an SDK package loads nothing
      { rule: 'infraPackages', from: 'shared/routes/index.ts', to: '@middy/core' },
      // bin/tools/gen-openapi.ts may read it
      { rule: 'openapi', from: 'shared/http/docs.ts', to: 'shared/openapi/document.ts' },
      { rule: 'schemas', from: 'shared/schemas/badge.ts', to: 'shared/domain/rules.ts' },
    ]);
    expect(describeViolations(found)).toContain(`${rules.data}:\n  shared/data/items.ts → shared/domain/rules.ts`);
  });
});

describe('the project', () => {
  const violations = checkLayering(importGraph(root));

  it.each(Object.keys(rules) as Rule[])('keeps the rule: %s', (rule) => {
    const broken = violations.filter((v) => v.rule === rule).map((v) => `${v.from} → ${v.to}`);
    expect(broken, rules[rule]).toEqual([]);
  });
});
