/**
 * What the precompiled validators (shared/http/operations/*) need at run time: ajv's small runtime
 * helpers and the format checks of ajv-formats, imported once here so the generated code has no
 * CommonJS `require` of its own.
 */
import * as equalModule from 'ajv/dist/runtime/equal.js';
import * as ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';

type Fn = (...args: never[]) => unknown;
/** A CommonJS module's `exports.default`, whichever way the ESM loader or bundler wrapped it. */
const cjsDefault = (mod: unknown): Fn => {
  let m = mod as { default?: unknown };
  while (typeof m !== 'function' && m && 'default' in m) m = m.default as { default?: unknown };
  return m as unknown as Fn;
};

export const runtime = {
  ucs2length: cjsDefault(ucs2lengthModule),
  equal: cjsDefault(equalModule),
  formats: fullFormats,
};
