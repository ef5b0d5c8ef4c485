import { isPlainObject } from '../../core/json.js';
import type { AnyField } from './field.js';
import { ToolDefinitionError } from './tool-definition-error.js';

const KINDS = new Set(['string', 'integer', 'number', 'boolean', 'consent', 'list', 'object', 'json']);
const SHAPES = new Set(['any', 'object', 'list']);
const BUILDERS =
  'field.string(), field.integer(), field.number(), field.boolean(), field.consent(), field.list(), field.object() or field.json()';

function isCount(n: number | undefined): boolean {
  return n === undefined || (Number.isInteger(n) && n >= 0);
}

function isBound(n: number | undefined): boolean {
  return n === undefined || Number.isFinite(n);
}

function ordered(low: number | undefined, high: number | undefined): boolean {
  return low === undefined || high === undefined || low <= high;
}

/** What is wrong with a value given as a field spec that is not one (a type name, a builder not called). */
function notASpec(spec: unknown): string | undefined {
  if (typeof spec === 'function') {
    return `is a function, not a field spec; call it (e.g. ${spec.name ? `field.${spec.name}()` : 'field.string()'})`;
  }
  if (isPlainObject(spec) && typeof spec.kind === 'string' && KINDS.has(spec.kind)) return undefined;
  const given =
    typeof spec === 'string'
      ? `the text ${JSON.stringify(spec)}`
      : isPlainObject(spec)
        ? 'an object no field builder made (a JSON schema, say)'
        : String(spec);
  return `${given} is not a field spec; declare it with ${BUILDERS}`;
}

/** The first thing wrong with a field spec itself, if anything. */
function specProblem(spec: AnyField): string | undefined {
  switch (spec.kind) {
    case 'string': {
      if (!isCount(spec.maxLength) || !isCount(spec.minLength)) return 'a length limit is a whole number ≥ 0';
      if (!ordered(spec.minLength, spec.maxLength)) return 'minLength is above maxLength';
      if (spec.default !== undefined && typeof spec.default !== 'string') return 'its default is text';
      if (spec.enum !== undefined) {
        if (!Array.isArray(spec.enum)) return 'enum is a list of the allowed texts';
        if (spec.enum.length === 0) return 'enum lists no value';
        if (spec.enum.some((v) => typeof v !== 'string')) return 'every enum value is text';
        if (new Set(spec.enum).size !== spec.enum.length) return 'enum lists a value twice';
      }
      if (spec.pattern !== undefined && !(spec.pattern instanceof RegExp)) {
        return 'pattern is a regular expression (e.g. /^[a-z]+$/), not text';
      }
      return undefined;
    }
    case 'integer':
    case 'number':
      if (!isBound(spec.min) || !isBound(spec.max)) return 'min and max are finite numbers';
      if (
        spec.default !== undefined &&
        (typeof spec.default !== 'number' || !Number.isFinite(spec.default))
      ) {
        return 'its default is a number, not text';
      }
      if (spec.kind === 'integer' && (!Number.isInteger(spec.min ?? 0) || !Number.isInteger(spec.max ?? 0))) {
        return 'an integer field has whole-number bounds';
      }
      return ordered(spec.min, spec.max) ? undefined : 'min is above max';
    case 'boolean':
      return [spec.default, spec.safe].every((v) => v === undefined || typeof v === 'boolean')
        ? undefined
        : 'safe and default are true or false, not text';
    case 'list':
      if (spec.items === undefined) {
        return 'a list declares its items (e.g. field.list(field.string()); carry a free-form list as field.json())';
      }
      if (!isCount(spec.maxItems) || !isCount(spec.minItems)) return 'an item limit is a whole number ≥ 0';
      return ordered(spec.minItems, spec.maxItems) ? undefined : 'minItems is above maxItems';
    case 'object':
      if (!isPlainObject(spec.fields)) {
        return 'a nested object declares its fields (e.g. field.object({ name: field.string() }))';
      }
      return Object.keys(spec.fields).length === 0
        ? 'a nested object declares at least one field (carry a free-form value as field.json())'
        : undefined;
    case 'json':
      return SHAPES.has(spec.shape) ? undefined : `shape is one of ${[...SHAPES].join(', ')}`;
    default:
      return undefined;
  }
}

/** Throws ToolDefinitionError when a field spec cannot work as written (or is not a field spec at all). */
export function checkFieldSpec(spec: unknown, site: { readonly tool: string; readonly path: string }): void {
  const foreign = notASpec(spec);
  if (foreign !== undefined) throw new ToolDefinitionError(site.tool, site.path, foreign);
  const field = spec as AnyField;
  if (field.description !== undefined && typeof field.description !== 'string') {
    throw new ToolDefinitionError(site.tool, site.path, 'a description is text');
  }
  const problem = specProblem(field);
  if (problem !== undefined) throw new ToolDefinitionError(site.tool, site.path, problem);
}
