import { isPlainObject } from '../core/json.js';
import { sentences } from './lift-summary.js';
import { dropKey, type Edits } from './node-edits.js';
import { declaresProperties, type NodeScan } from './node-scan.js';
import { A_TYPE, COUNT_BOUNDS, PER_TYPE, PORTABLE_FORMAT, type PortableType } from './profile.js';
import { elementNull, type Lift, liftHere, repaired, type Walk } from './schema-walk.js';

type Schema = Record<string, unknown>;

const NOT_PORTABLE = new Map<string, string>();

/** "`key` is not portable", built once per keyword. */
function notPortable(key: string): string {
  let text = NOT_PORTABLE.get(key);
  if (text === undefined) {
    text = `\`${key}\` is not portable`;
    if (NOT_PORTABLE.size < 256) NOT_PORTABLE.set(key, text);
  }
  return text;
}

/**
 * What the keyword pass does with each keyword, looked up once per key (cheaper than asking the
 * profile's tables one by one): `kept` (always fine here), `text`, `format`, `definitions`, `map`,
 * `shape` (a node's children, fine on the type they belong to), or the type any other per-type
 * keyword belongs to (`object`, `array`, `string`, `number-like`). Any other keyword (structural
 * ones included) only narrows or annotates, and is dropped.
 */
const CHECKS = new Map<string, string>([
  ...PER_TYPE,
  ['type', 'kept'],
  ['default', 'kept'],
  ['enum', 'kept'],
  ['description', 'text'],
  ['title', 'text'],
  ['format', 'format'],
  ['$defs', 'definitions'],
  ['definitions', 'definitions'],
  ['additionalProperties', 'map'],
  ['patternProperties', 'map'],
  ['properties', 'shape'],
  ['required', 'shape'],
  ['items', 'shape'],
]);

/** The keyword pass: every key is kept, or dropped with an issue saying why; a `Lift` for a tuple. */
export function checkKeywords(
  w: Walk,
  node: Schema,
  scan: NodeScan,
  type: PortableType,
  atRoot: boolean,
  edits: Edits,
): Lift | undefined {
  // OpenAPI's `nullable: true` is dropped with the rest: fine for an argument, not for a list element.
  if (node.nullable === true) {
    const lift = elementNull(w);
    if (lift !== undefined) return lift;
  }
  for (const key in node) {
    const check = CHECKS.get(key);
    if (check === 'kept') continue;
    if (check === 'shape') {
      if (PER_TYPE.get(key) !== type) {
        dropKey(w, edits, key, 'keyword_misplaced', `\`${key}\` does not apply to ${A_TYPE[type]}`);
      }
      continue;
    }
    const value = node[key];
    if (check === 'map') {
      checkMapKeyword(w, key, value, scan, type, atRoot, edits);
    } else if (check === 'text') {
      if (typeof value !== 'string')
        dropKey(w, edits, key, 'keyword_misplaced', `\`${key}\` must be a string`);
    } else if (check === 'format') {
      if (!(type === 'string' && value === PORTABLE_FORMAT)) {
        const detail = `format ${JSON.stringify(value)} on ${A_TYPE[type]} is not portable`;
        dropKey(w, edits, key, 'format_unsupported', detail);
      }
    } else if (check === 'definitions') {
      dropKey(w, edits, key, 'keyword_unsupported', `\`${key}\` is not portable`, INLINED);
    } else if (check !== undefined) {
      checkPerType(w, key, value, check, type, edits);
    } else if (key === 'prefixItems' && type === 'array') {
      return liftHere(w, 'keyword_unsupported', 'a tuple (`prefixItems`) has no portable form', key);
    } else {
      dropKey(w, edits, key, 'keyword_unsupported', notPortable(key));
    }
  }
  return undefined;
}

/** A keyword that belongs to the type `owner`: dropped on another type, or when its value is not one. */
function checkPerType(
  w: Walk,
  key: string,
  value: unknown,
  owner: string,
  type: PortableType,
  edits: Edits,
): void {
  if (!(owner === type || (owner === 'number-like' && (type === 'number' || type === 'integer')))) {
    dropKey(w, edits, key, 'keyword_misplaced', `\`${key}\` does not apply to ${A_TYPE[type]}`);
  } else if (COUNT_BOUNDS.has(key) && !isCount(value)) {
    // Gemini reads counts as int64 and refuses the whole request when one does not parse as that.
    const detail = `\`${key}\` must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`;
    dropKey(w, edits, key, 'keyword_misplaced', detail);
  } else if ((key === 'minimum' || key === 'maximum') && !isFiniteNumber(value)) {
    dropKey(w, edits, key, 'keyword_misplaced', `\`${key}\` must be a number`);
  } else if (key === 'pattern' && typeof value !== 'string') {
    dropKey(w, edits, key, 'keyword_misplaced', '`pattern` must be a string');
  } else if (key === 'pattern' && !compiles(value as string)) {
    dropKey(w, edits, key, 'keyword_misplaced', '`pattern` is not a regular expression validators can read');
  }
}

const INLINED = 'dropped it (every reference into it is inlined)';

function isFiniteNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}

/** `additionalProperties` / `patternProperties`: dropped beside properties; a map otherwise. */
function checkMapKeyword(
  w: Walk,
  key: string,
  value: unknown,
  scan: NodeScan,
  type: PortableType,
  atRoot: boolean,
  edits: Edits,
): void {
  if (type !== 'object') {
    dropKey(w, edits, key, 'keyword_misplaced', `\`${key}\` does not apply to ${A_TYPE[type]}`);
  } else if (declaresProperties(scan) || (atRoot && (value === false || !isPlainObject(value)))) {
    dropKey(w, edits, key, 'keyword_unsupported', notPortable(key));
  } else if (atRoot) {
    const fix = 'offered an object that takes any keys (the tool still checks them)';
    dropKey(w, edits, key, 'object_properties_missing', 'a map at the root has no portable schema', fix);
  }
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Patterns already tried (generated schemas repeat the same few thousands of times). */
const COMPILED = new Map<string, boolean>();

/** True when `pattern` is a regular expression (as JSON Schema validators read it, in Unicode mode). */
function compiles(pattern: string): boolean {
  const known = COMPILED.get(pattern);
  if (known !== undefined) return known;
  let ok = true;
  try {
    new RegExp(pattern, 'u');
  } catch {
    ok = false;
  }
  if (COMPILED.size < 1024) COMPILED.set(pattern, ok);
  return ok;
}

/** True when every value is a string and none repeats (the enum is kept as declared). */
function distinctStrings(values: unknown[]): boolean {
  // A short list is searched; a long one (time zones, locales) gets a set.
  const seen = values.length > 32 ? new Set<unknown>() : undefined;
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i];
    if (typeof v !== 'string') return false;
    if (seen === undefined) {
      if (values.indexOf(v) !== i) return false;
    } else {
      if (seen.has(v)) return false;
      seen.add(v);
    }
  }
  return true;
}

/** The `enum` of a node of type `type`: kept, repaired or dropped. */
export function checkEnum(w: Walk, node: Schema, values: unknown, type: PortableType, edits: Edits): void {
  if (type !== 'string') {
    dropKey(w, edits, 'enum', 'enum_invalid', `an \`enum\` on ${A_TYPE[type]} is not portable`);
    return;
  }
  if (!Array.isArray(values)) {
    dropKey(w, edits, 'enum', 'enum_invalid', '`enum` must be a list');
    return;
  }
  const changed = !distinctStrings(values);
  const kept: string[] = changed ? [...new Set(values.filter((v) => typeof v === 'string'))] : values;
  if (kept.includes('')) {
    const listed = kept.filter((v) => v !== '').map((v) => JSON.stringify(v));
    const fix = 'dropped the `enum` and listed its values in the description';
    dropKey(w, edits, 'enum', 'enum_invalid', 'an empty string is not a portable enum value', fix);
    edits.set('description', describeChoices(node, listed));
    return;
  }
  if (kept.length === 0) {
    dropKey(w, edits, 'enum', 'enum_invalid', 'no portable (non-empty string) enum value is left');
    return;
  }
  if (!changed) return;
  repaired(
    w,
    'enum_invalid',
    'an `enum` must hold distinct strings',
    'dropped the repeated and non-string values',
    'enum',
  );
  edits.set('enum', kept);
}

function describeChoices(node: Schema, listed: string[]): string {
  const own = typeof node.description === 'string' ? node.description.trim() : '';
  const choices =
    listed.length === 0
      ? 'Only an empty string.'
      : `One of ${listed.slice(0, 20).join(', ')}${listed.length > 20 ? ', …' : ''}, or an empty string.`;
  return sentences(own, choices);
}

/** True when `required` lists distinct names, each a declared property (kept as declared). */
function requiresDeclared(required: unknown[], props: Schema): boolean {
  // A short list (nearly every one) is checked for repeats in place; a long one through a set.
  if (required.length > 32) return requiresDeclaredMany(required, props);
  for (let i = 0; i < required.length; i += 1) {
    const name = required[i];
    if (typeof name !== 'string' || !Object.hasOwn(props, name) || required.indexOf(name) !== i) return false;
  }
  return true;
}

function requiresDeclaredMany(required: unknown[], props: Schema): boolean {
  const seen = new Set<string>();
  for (const name of required) {
    if (typeof name !== 'string' || !Object.hasOwn(props, name) || seen.has(name)) return false;
    seen.add(name);
  }
  return true;
}

/**
 * `required`: a list of declared property names, repaired when it is not. Names in `optional` (their
 * argument takes null, which the offer cannot carry) are left out, so leaving them out stands for null.
 */
export function checkRequired(
  w: Walk,
  required: unknown,
  props: Schema,
  edits: Edits,
  optional?: readonly string[],
): void {
  if (required === undefined) return;
  if (optional === undefined && Array.isArray(required) && requiresDeclared(required, props)) return;
  let listed: unknown[];
  if (typeof required === 'string') {
    repaired(w, 'required_invalid', '`required` must be a list', 'wrapped the name in a list', 'required');
    listed = [required];
  } else if (Array.isArray(required)) {
    listed = required;
  } else {
    repaired(w, 'required_invalid', '`required` must be a list', 'dropped it', 'required');
    listed = [];
  }
  const kept: string[] = [];
  const seen = new Set<string>();
  const optionalNames = new Set(optional);
  for (let i = 0; i < listed.length; i += 1) {
    const name = listed[i];
    if (typeof name === 'string' && seen.has(name)) {
      repaired(
        w,
        'required_invalid',
        `${JSON.stringify(name)} is listed twice`,
        'dropped the repeat',
        'required',
      );
    } else if (typeof name !== 'string' || !Object.hasOwn(props, name)) {
      const shown = JSON.stringify(name) ?? String(name);
      repaired(
        w,
        'required_invalid',
        `${shown} is required but is not a declared property`,
        'dropped it',
        'required',
      );
    } else if (optionalNames.has(name)) {
      seen.add(name);
      repaired(
        w,
        'type_invalid',
        `${JSON.stringify(name)} is required and takes null, which no provider can send`,
        'made it optional: leaving it out sends null',
        'required',
      );
    } else {
      seen.add(name);
      kept.push(name);
    }
  }
  if (kept.length === 0) edits.drop('required');
  else edits.set('required', kept);
}
