import { createRequire } from 'node:module';
import { Ajv, type AnySchema, type AnySchemaObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';

/** The JSON Schema drafts a declared schema can name in `$schema`. */
export type SchemaDraft = 'draft-04' | 'draft-06' | 'draft-07' | '2019-09' | '2020-12';

/** Loads a dependency when first needed (ajv-draft-04, the OpenAPI schemas), so starting up never pays for it. */
export const requireOnUse = createRequire(import.meta.url);

const OPTIONS: Options = { strict: false, allErrors: true, validateFormats: false };

type Compiler = { compile(schema: AnySchema): ValidateFunction };

const compilers = new Map<SchemaDraft, Compiler>();

/** An ajv for `draft`, made on first use and kept for the process (for declared schemas). */
export function draftCompiler(draft: SchemaDraft): Compiler {
  let held = compilers.get(draft);
  if (held === undefined) {
    held = newCompiler(draft);
    compilers.set(draft, held);
  }
  return held;
}

/** A new ajv for `draft`, sharing no schema ids with any other. */
export function newCompiler(draft: SchemaDraft): Compiler {
  let made: Compiler;
  if (draft === 'draft-04') {
    type Draft04 = new (options: Options) => Compiler;
    const loaded = requireOnUse('ajv-draft-04') as Draft04 | { default: Draft04 };
    made = new ('default' in loaded ? loaded.default : loaded)(OPTIONS);
  } else if (draft === '2019-09') made = new Ajv2019(OPTIONS);
  else if (draft === '2020-12') made = new Ajv2020(OPTIONS);
  else {
    const ajv = new Ajv(OPTIONS);
    if (draft === 'draft-06') {
      const meta = requireOnUse('ajv/dist/refs/json-schema-draft-06.json') as AnySchemaObject;
      ajv.addMetaSchema(meta);
    }
    made = ajv;
  }
  return made;
}

/** The draft a schema's `$schema` names; 2020-12 when it names none (or one ajv does not know). */
export function schemaDraft(schema: { readonly $schema?: unknown }): SchemaDraft {
  const named = typeof schema.$schema === 'string' ? schema.$schema : '';
  const found = /draft-0[467]|2019-09|2020-12/.exec(named)?.[0];
  return (found as SchemaDraft | undefined) ?? '2020-12';
}

/**
 * A declared schema's validator, by the draft its `$schema` names (else 2020-12): an unknown `$schema`
 * is read as 2020-12 rather than left unchecked.
 */
export function compileDeclared(schema: Record<string, unknown>): ValidateFunction {
  const draft = schemaDraft(schema);
  const known = typeof schema.$schema !== 'string' || /draft-0[467]|2019-09|2020-12/.test(schema.$schema);
  const { $schema: _named, ...rest } = schema;
  return draftCompiler(draft).compile(known ? schema : rest);
}
