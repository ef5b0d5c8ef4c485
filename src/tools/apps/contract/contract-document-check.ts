import type { ErrorObject } from 'ajv';
import type { JsonObject } from '../../../core/json.js';
import { isPlainObject } from '../../../core/json.js';
import { type OpenApiLine, openApiValidator } from './contract-meta-schema.js';

/** Most problems named in one load failure (a broken document can have thousands). */
const MOST_PROBLEMS = 8;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The OpenAPI line a document says it follows, or undefined for any other (Swagger 2.0, 3.2, none). */
export function openApiLine(document: JsonObject): OpenApiLine | undefined {
  const version = document.openapi;
  if (typeof version !== 'string') return undefined;
  return /^3\.0\.\d/.test(version) ? '3.0' : /^3\.1\.\d/.test(version) ? '3.1' : undefined;
}

/** A JSON pointer as a reader finds the place: `paths["/pets/{id}"].get.parameters[0]`. */
export function documentPlace(pointer: string): string {
  if (pointer === '') return 'the document';
  const steps = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  return steps.reduce((at, step, i) => {
    if (/^\d+$/.test(step)) return `${at}[${step}]`;
    if (/^[A-Za-z_$][\w$-]*$/.test(step)) return i === 0 ? step : `${at}.${step}`;
    return `${at}[${JSON.stringify(step)}]`;
  }, '');
}

function valueAt(document: unknown, pointer: string): unknown {
  let at = document;
  for (const step of pointer.split('/').slice(1)) {
    const key = step.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(at)) at = at[Number(key)];
    else if (isPlainObject(at)) at = at[key];
    else return undefined;
  }
  return at;
}

/** One schema error in a reader's words; undefined for the noise a union's other branches leave. */
function said(error: ErrorObject): string | undefined {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'oneOf':
    case 'anyOf':
    case 'if':
      return undefined;
    case 'required':
      // every place a Reference object may stand also reports the `$ref` it lacks
      return params.missingProperty === '$ref' ? undefined : `lacks "${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `has "${String(params.additionalProperty)}", which OpenAPI does not define there`;
    case 'type':
      return `must be ${/^[aeiou]/.test(String(params.type)) ? 'an' : 'a'} ${String(params.type)}`;
    default:
      return error.message;
  }
}

/**
 * What is wrong with a document (its `$ref`s not yet followed) by the OpenAPI schema of its line, each
 * problem with where it is; empty when nothing is. Problems inside a place that has its own, deeper ones
 * are left out: the deepest say what to fix.
 */
export function schemaProblems(document: JsonObject, line: OpenApiLine): string[] {
  const validate = openApiValidator(line);
  if (validate(document)) return [];
  const found = new Map<string, Set<string>>();
  // A union's branches each allow their own values at one place (a parameter's `in`): named together.
  const allowed = new Map<string, Set<unknown>>();
  for (const error of validate.errors ?? []) {
    const values = (error.params as { allowedValues?: unknown }).allowedValues;
    if (error.keyword === 'enum' && Array.isArray(values)) {
      const held = allowed.get(error.instancePath) ?? new Set<unknown>();
      for (const v of values) held.add(v);
      allowed.set(error.instancePath, held);
    }
  }
  for (const [at, values] of allowed) {
    const text = `is ${JSON.stringify(valueAt(document, at))}, not one of ${[...values].join(', ')}`;
    found.set(at, new Set([text]));
  }
  for (const error of validate.errors ?? []) {
    if (error.keyword === 'enum' && allowed.has(error.instancePath)) continue;
    const text = said(error);
    if (text === undefined) continue;
    const at = found.get(error.instancePath) ?? new Set<string>();
    at.add(text);
    found.set(error.instancePath, at);
  }
  const places = [...found.keys()];
  const deepest = places.filter((p) => !places.some((q) => q !== p && q.startsWith(`${p}/`)));
  return deepest.flatMap((p) => [...(found.get(p) ?? [])].map((text) => `${documentPlace(p)} ${text}`));
}

/**
 * What the OpenAPI schema cannot see (the same rules the parser's own validation keeps): each `{name}` in a
 * path is declared as a path parameter of every operation under it and each path parameter is in the path
 * (else a call would send the braces, or take an argument that goes nowhere), and no parameter is declared
 * twice in one list. Read on the document with its `$ref`s followed.
 */
export function pathProblems(document: JsonObject): string[] {
  const problems: string[] = [];
  const paths = isPlainObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isPlainObject(item)) continue;
    const named = new Set([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string));
    const shared = parametersOf(item.parameters);
    problems.push(...twice(shared, `paths[${JSON.stringify(path)}].parameters`));
    for (const method of METHODS) {
      const operation = item[method];
      if (!isPlainObject(operation)) continue;
      const own = parametersOf(operation.parameters);
      const where = `${method.toUpperCase()} ${path}`;
      problems.push(...twice(own, `paths[${JSON.stringify(path)}].${method}.parameters`));
      const declared = new Set(
        [...shared, ...own].filter((p) => p.in === 'path' && typeof p.name === 'string').map((p) => p.name),
      );
      for (const name of named) {
        if (!declared.has(name))
          problems.push(`${where}: the path names {${name}}, which no path parameter declares`);
      }
      for (const name of declared) {
        if (!named.has(name as string))
          problems.push(
            `${where}: the path parameter ${String(name)} is not in the path; add {${String(name)}} or remove it`,
          );
      }
    }
  }
  return problems;
}

function parametersOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

function twice(parameters: Record<string, unknown>[], where: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of parameters) {
    const key = `${String(p.in)} ${String(p.name)}`;
    if (seen.has(key)) out.push(`${where} declares the ${String(p.in)} parameter ${String(p.name)} twice`);
    seen.add(key);
  }
  return out;
}

/** Problems as one sentence's list: the first few, and how many more. */
export function problemList(problems: readonly string[]): string {
  const shown = problems.slice(0, MOST_PROBLEMS).join('; ');
  const more = problems.length - MOST_PROBLEMS;
  return more > 0 ? `${shown}; and ${more} more` : shown;
}
