import type { AnyField } from './field.js';
import { ToolDefinitionError } from './tool-definition-error.js';

function isCount(n: number | undefined): boolean {
  return n === undefined || (Number.isInteger(n) && n >= 0);
}

function isBound(n: number | undefined): boolean {
  return n === undefined || Number.isFinite(n);
}

function ordered(low: number | undefined, high: number | undefined): boolean {
  return low === undefined || high === undefined || low <= high;
}

/** The first thing wrong with a field spec itself, if anything. */
function specProblem(spec: AnyField): string | undefined {
  switch (spec.kind) {
    case 'string': {
      if (!isCount(spec.maxLength) || !isCount(spec.minLength)) return 'a length limit is a whole number ≥ 0';
      if (!ordered(spec.minLength, spec.maxLength)) return 'minLength is above maxLength';
      if (spec.enum !== undefined) {
        if (spec.enum.length === 0) return 'enum lists no value';
        if (spec.enum.some((v) => typeof v !== 'string')) return 'every enum value is text';
        if (new Set(spec.enum).size !== spec.enum.length) return 'enum lists a value twice';
      }
      return undefined;
    }
    case 'integer':
    case 'number':
      if (!isBound(spec.min) || !isBound(spec.max)) return 'min and max are finite numbers';
      if (spec.kind === 'integer' && (!Number.isInteger(spec.min ?? 0) || !Number.isInteger(spec.max ?? 0))) {
        return 'an integer field has whole-number bounds';
      }
      return ordered(spec.min, spec.max) ? undefined : 'min is above max';
    case 'list':
      if (!isCount(spec.maxItems) || !isCount(spec.minItems)) return 'an item limit is a whole number ≥ 0';
      return ordered(spec.minItems, spec.maxItems) ? undefined : 'minItems is above maxItems';
    case 'object':
      return Object.keys(spec.fields).length === 0
        ? 'a nested object declares at least one field (carry a free-form value as field.json())'
        : undefined;
    default:
      return undefined;
  }
}

/** Throws ToolDefinitionError when a field spec cannot work as written. */
export function checkFieldSpec(spec: AnyField, site: { readonly tool: string; readonly path: string }): void {
  if (spec.description !== undefined && typeof spec.description !== 'string') {
    throw new ToolDefinitionError(site.tool, site.path, 'a description is text');
  }
  const problem = specProblem(spec);
  if (problem !== undefined) throw new ToolDefinitionError(site.tool, site.path, problem);
}
