import { isPlainObject } from '../core/json.js';
import { liftedSchema, sentences } from './lift-summary.js';
import { EVERY_ELEMENT } from './lifted-argument.js';
import type { NodeScan } from './node-scan.js';
import {
  appliesTo,
  COUNT_BOUNDS,
  isPortableType,
  keywordKind,
  PORTABLE_FORMAT,
  PORTABLE_TYPES,
  type PortableType,
} from './profile.js';
import type { RuleId } from './schema-issue.js';
import { put } from './schema-merge.js';
import { Lift, liftHere, pathHere, recordLift, repaired, type Walk } from './schema-walk.js';
import { nullablePair, walkNode } from './walk-node.js';

type Schema = Record<string, unknown>;

/** What is said about a `[T, "null"]` type list, per T (the most frequent repair there is). */
const NULLABLE_WORDS = Object.fromEntries(
  PORTABLE_TYPES.map((t) => [
    t,
    {
      detail: `a type list ["${t}", "null"] is not portable`,
      fix: `narrowed it to "${t}" (the argument is omitted instead of null)`,
    },
  ]),
) as Record<PortableType, { detail: string; fix: string }>;

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

/** The changes a typed node needs: keys to leave out, and keys to (re)set with their values. */
class Edits {
  readonly dropped: string[] = [];
  /** Key, value, key, value, … */
  readonly sets: unknown[] = [];

  drop(key: string): this {
    this.dropped.push(key);
    return this;
  }

  set(key: string, value: unknown): this {
    this.sets.push(key, value);
    return this;
  }

  /** Where `key`'s new value sits in `sets`, or -1. */
  valueAt(key: string): number {
    for (let i = 0; i < this.sets.length; i += 2) if (this.sets[i] === key) return i + 1;
    return -1;
  }
}

function edit(edits: Edits | undefined): Edits {
  return edits ?? new Edits();
}

/** Walks a node that has no combinator left: checks its type and keywords, then its children. */
export function shapeTyped(w: Walk, node: Schema, scan: NodeScan, depth: number, atRoot: boolean): unknown {
  let type = scan.type;
  let edits: Edits | undefined;
  if (Array.isArray(type)) {
    const only = nullablePair(type) as PortableType | undefined;
    if (only === undefined) return liftHere(w, 'type_invalid', 'a type list is not portable', 'type');
    const words = NULLABLE_WORDS[only];
    repaired(w, 'type_invalid', words.detail, words.fix, 'type');
    edits = new Edits().set('type', only);
    type = only;
  } else if (type === undefined) {
    const inferred = atRoot ? 'object' : inferType(node);
    if (inferred === undefined) {
      return liftHere(w, 'type_missing', 'declares no `type`, so any value fits');
    }
    const rule = atRoot ? 'root_not_object' : 'type_missing';
    repaired(w, rule, 'declares no `type`', `read it as "${inferred}" from its keywords`);
    edits = edit(edits);
    edits.set('type', inferred);
    type = inferred;
  }
  if (!isPortableType(type)) {
    if (atRoot)
      return liftHere(w, 'root_not_object', `the root must be an object, not ${JSON.stringify(type)}`);
    if (type === 'null') return liftHere(w, 'type_invalid', 'a `null` type accepts nothing but null');
    return liftHere(w, 'type_invalid', `\`type\` ${JSON.stringify(type)} is not portable`, 'type');
  }
  if (atRoot && type !== 'object') {
    return liftHere(w, 'root_not_object', `the root must be an object, not "${type}"`);
  }
  const misplaced =
    (type !== 'object' && (scan.properties !== undefined || scan.required !== undefined)) ||
    (type !== 'array' && scan.items !== undefined);
  if (scan.other || misplaced) {
    const result = checkKeywords(w, node, scan, type, atRoot, edits);
    if (result instanceof Lift) return result;
    edits = result;
  }
  if (scan.enumValues !== undefined) edits = checkEnum(w, node, scan.enumValues, type, edits);
  const children =
    type === 'object'
      ? shapeObject(w, node, scan, depth, atRoot, edits)
      : type === 'array'
        ? shapeArray(w, scan, depth, edits)
        : edits;
  if (children instanceof Lift) return children;
  return children === undefined ? node : rebuild(node, children);
}

/** The one type an untyped node's keywords belong to, if they agree. */
function inferType(node: Schema): PortableType | undefined {
  let found: PortableType | undefined;
  for (const key in node) {
    let owner: PortableType | undefined;
    if (key === 'properties' || key === 'additionalProperties' || key === 'patternProperties')
      owner = 'object';
    else if (key === 'items' || key === 'prefixItems') owner = 'array';
    else if (key === 'enum' && Array.isArray(node.enum) && node.enum.length > 0) owner = 'string';
    else if (key === 'minimum' || key === 'maximum') owner = 'number';
    else if (keywordKind(key) === 'per-type') {
      for (const t of ['object', 'array', 'string'] as const) if (appliesTo(key, t)) owner = t;
    }
    if (owner === undefined) continue;
    if (found !== undefined && found !== owner) return undefined;
    found = owner;
  }
  return found;
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** Leaves `key` out of the offered node, recording why. */
function dropKey(
  w: Walk,
  edits: Edits | undefined,
  key: string,
  rule: RuleId,
  detail: string,
  fix = 'dropped it',
): Edits {
  repaired(w, rule, detail, fix, key);
  const out = edit(edits);
  out.drop(key);
  return out;
}

/** The keyword pass: every key is kept, or dropped with an issue saying why. */
function checkKeywords(
  w: Walk,
  node: Schema,
  scan: NodeScan,
  type: PortableType,
  atRoot: boolean,
  edits: Edits | undefined,
): Edits | Lift | undefined {
  for (const key in node) {
    const value = node[key];
    switch (keywordKind(key)) {
      case 'common':
        if ((key === 'description' || key === 'title') && typeof value !== 'string') {
          edits = dropKey(w, edits, key, 'keyword_misplaced', `\`${key}\` must be a string`);
        } else if (key === 'format' && !(type === 'string' && value === PORTABLE_FORMAT)) {
          const detail = `format ${JSON.stringify(value)} on a ${type} is not portable`;
          edits = dropKey(w, edits, key, 'format_unsupported', detail);
        }
        break;
      case 'per-type':
        if (!appliesTo(key, type)) {
          edits = dropKey(w, edits, key, 'keyword_misplaced', `\`${key}\` does not apply to a ${type}`);
        } else if (COUNT_BOUNDS.has(key) && !isCount(value)) {
          edits = dropKey(
            w,
            edits,
            key,
            'keyword_misplaced',
            `\`${key}\` must be a whole number of at least 0`,
          );
        } else if ((key === 'minimum' || key === 'maximum') && !isFiniteNumber(value)) {
          edits = dropKey(w, edits, key, 'keyword_misplaced', `\`${key}\` must be a number`);
        } else if (key === 'pattern' && typeof value !== 'string') {
          edits = dropKey(w, edits, key, 'keyword_misplaced', '`pattern` must be a string');
        }
        break;
      case 'definitions':
        edits = dropKey(w, edits, key, 'keyword_unsupported', `\`${key}\` is not portable`, INLINED);
        break;
      case 'map':
        edits = checkMapKeyword(w, key, value, scan, type, atRoot, edits);
        break;
      default:
        if (key === 'prefixItems' && type === 'array') {
          return liftHere(w, 'keyword_unsupported', 'a tuple (`prefixItems`) has no portable form', key);
        }
        edits = dropKey(w, edits, key, 'keyword_unsupported', notPortable(key));
    }
  }
  return edits;
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
  edits: Edits | undefined,
): Edits | undefined {
  if (type !== 'object')
    return dropKey(w, edits, key, 'keyword_misplaced', `\`${key}\` does not apply to a ${type}`);
  if (hasKeys(scan.properties) || (atRoot && (value === false || !isPlainObject(value)))) {
    return dropKey(w, edits, key, 'keyword_unsupported', notPortable(key));
  }
  if (!atRoot) return edits;
  const fix = 'offered an object that takes any keys (the tool still checks them)';
  return dropKey(w, edits, key, 'object_properties_missing', 'a map at the root has no portable schema', fix);
}

/** True for an object with at least one key. */
function hasKeys(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  for (const _ in value) return true;
  return false;
}

function checkEnum(
  w: Walk,
  node: Schema,
  values: unknown,
  type: PortableType,
  edits: Edits | undefined,
): Edits | undefined {
  if (type !== 'string')
    return dropKey(w, edits, 'enum', 'enum_invalid', `an \`enum\` on a ${type} is not portable`);
  if (!Array.isArray(values)) return dropKey(w, edits, 'enum', 'enum_invalid', '`enum` must be a list');
  const kept: string[] = [];
  const seen = new Set<unknown>();
  let changed = false;
  for (const v of values) {
    if (typeof v !== 'string' || seen.has(v)) changed = true;
    else {
      kept.push(v);
      seen.add(v);
    }
  }
  if (kept.includes('')) {
    const listed = kept.filter((v) => v !== '').map((v) => JSON.stringify(v));
    const fix = 'dropped the `enum` and listed its values in the description';
    const out = dropKey(
      w,
      edits,
      'enum',
      'enum_invalid',
      'an empty string is not a portable enum value',
      fix,
    );
    out.set('description', describeChoices(node, listed));
    return out;
  }
  if (kept.length === 0)
    return dropKey(w, edits, 'enum', 'enum_invalid', 'no portable (non-empty string) enum value is left');
  if (!changed) return edits;
  repaired(
    w,
    'enum_invalid',
    'an `enum` must hold distinct strings',
    'dropped the repeated and non-string values',
    'enum',
  );
  const out = edit(edits);
  out.set('enum', kept);
  return out;
}

function describeChoices(node: Schema, listed: string[]): string {
  const own = typeof node.description === 'string' ? node.description.trim() : '';
  const choices = `One of ${listed.slice(0, 20).join(', ')}${listed.length > 20 ? ', …' : ''}, or an empty string.`;
  return sentences(own, choices);
}

function shapeObject(
  w: Walk,
  node: Schema,
  scan: NodeScan,
  depth: number,
  atRoot: boolean,
  edits: Edits | undefined,
): Edits | Lift | undefined {
  const props = scan.properties;
  if (props !== undefined && !isPlainObject(props)) {
    repaired(w, 'node_not_schema', '`properties` must be an object', 'dropped it', 'properties');
    edits = edit(edits);
    edits.drop('properties');
  }
  if (!isPlainObject(props) || !hasKeys(props)) {
    if (!atRoot) {
      const map = node.additionalProperties !== undefined || node.patternProperties !== undefined;
      const detail = map
        ? 'a map (an object with no declared property, keyed freely) has no portable schema'
        : 'an object with no declared property (free-form) has no portable schema';
      return liftHere(w, 'object_properties_missing', detail);
    }
    if (!isPlainObject(props)) {
      const fix = 'added an empty `properties` (the tool takes no named arguments)';
      repaired(w, 'object_properties_missing', 'the root declares no `properties`', fix);
      edits = edit(edits);
      edits.set('properties', {});
    }
    return checkRequired(w, scan.required, {}, edits);
  }
  const shaped = shapeProperties(w, props, depth);
  if (shaped !== undefined) {
    edits = edit(edits);
    edits.set('properties', shaped);
  }
  return checkRequired(w, scan.required, props, edits);
}

/** Walks each property; returns the offered properties when any changed, else undefined. */
function shapeProperties(w: Walk, props: Schema, depth: number): Schema | undefined {
  let shaped: Schema | undefined;
  const parent = w.path;
  const prefix = parent === '' ? 'properties.' : `${parent}.properties.`;
  let index = 0;
  for (const name in props) {
    const declared = props[name];
    w.path = prefix + name;
    w.args.push(name);
    const issueMark = w.issues.length;
    const liftMark = w.lifted.length;
    let result = walkNode(w, declared, depth + 1);
    if (result instanceof Lift) {
      w.issues.length = issueMark;
      w.lifted.length = liftMark;
      recordLift(w, result, declared);
      const text = liftedSchema(w.resolve, declared);
      w.liftedNodes.add(text);
      result = text;
    }
    w.args.pop();
    if (result !== declared && shaped === undefined) shaped = copyFirst(props, index);
    if (shaped !== undefined) {
      if (name === '__proto__') put(shaped, name, result);
      else shaped[name] = result;
    }
    index += 1;
  }
  w.path = parent;
  return shaped;
}

/** The first `count` entries of `props`, copied. */
function copyFirst(props: Schema, count: number): Schema {
  const out: Schema = {};
  let index = 0;
  for (const name in props) {
    if (index === count) break;
    put(out, name, props[name]);
    index += 1;
  }
  return out;
}

function checkRequired(
  w: Walk,
  required: unknown,
  props: Schema,
  edits: Edits | undefined,
): Edits | undefined {
  if (required === undefined) return edits;
  let listed: unknown[];
  let changed = false;
  if (typeof required === 'string') {
    repaired(w, 'required_invalid', '`required` must be a list', 'wrapped the name in a list', 'required');
    listed = [required];
    changed = true;
  } else if (Array.isArray(required)) {
    listed = required;
  } else {
    repaired(w, 'required_invalid', '`required` must be a list', 'dropped it', 'required');
    listed = [];
    changed = true;
  }
  const kept: string[] = [];
  for (const name of listed) {
    if (typeof name === 'string' && kept.includes(name)) {
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
    } else {
      kept.push(name);
      continue;
    }
    changed = true;
  }
  if (!changed) return edits;
  edits = edit(edits);
  if (kept.length === 0) edits.drop('required');
  else edits.set('required', kept);
  return edits;
}

function shapeArray(
  w: Walk,
  scan: NodeScan,
  depth: number,
  edits: Edits | undefined,
): Edits | Lift | undefined {
  const items = scan.items;
  if (
    items === undefined ||
    items === true ||
    items === false ||
    (isPlainObject(items) && Object.keys(items).length === 0)
  ) {
    const extra = items === undefined ? undefined : 'items';
    return liftHere(w, 'array_items_missing', 'a list must declare the schema of its `items`', extra);
  }
  if (Array.isArray(items)) {
    return liftHere(
      w,
      'keyword_unsupported',
      'a tuple (`items` as a list of schemas) has no portable form',
      'items',
    );
  }
  const parent = w.path;
  w.path = pathHere(w, 'items');
  w.args.push(EVERY_ELEMENT);
  const result = walkNode(w, items, depth + 1);
  w.path = parent;
  w.args.pop();
  if (result instanceof Lift) return result;
  if (result === items) return edits;
  edits = edit(edits);
  edits.set('items', result);
  return edits;
}

/** A copy of `node` with the edits applied; `type` first when it was set. */
function rebuild(node: Schema, edits: Edits): Schema {
  const out: Schema = {};
  const { dropped, sets } = edits;
  if (node.type === undefined) {
    const at = edits.valueAt('type');
    if (at > 0) out.type = sets[at];
  }
  for (const key in node) {
    if (dropped.length > 0 && dropped.includes(key)) continue;
    const at = sets.length > 0 ? edits.valueAt(key) : -1;
    const value = at > 0 ? sets[at] : node[key];
    if (key === '__proto__') put(out, key, value);
    else out[key] = value;
  }
  for (let i = 0; i < sets.length; i += 2) {
    const key = sets[i] as string;
    if (!Object.hasOwn(out, key)) put(out, key, sets[i + 1]);
  }
  return out;
}
