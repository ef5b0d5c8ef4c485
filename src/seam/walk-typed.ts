import { isPlainObject } from '../core/json.js';
import { liftedSchema, sentences, takesOf } from './lift-summary.js';
import { EVERY_ELEMENT } from './lifted-argument.js';
import {
  appliesTo,
  COUNT_BOUNDS,
  isPortableType,
  keywordKind,
  PORTABLE_FORMAT,
  type PortableType,
} from './profile.js';
import type { RuleId } from './schema-issue.js';
import { put } from './schema-merge.js';
import { Lift, liftHere, pathHere, recordLift, repaired, type Walk } from './schema-walk.js';
import { walkNode } from './walk-node.js';

type Schema = Record<string, unknown>;

/** The changes a typed node needs: keys to leave out and keys to (re)set, in order. */
interface Edits {
  drop: string[];
  set: Array<[string, unknown]>;
}

function edit(edits: Edits | undefined): Edits {
  return edits ?? { drop: [], set: [] };
}

/** Walks a node that has no combinator left: checks its type and keywords, then its children. */
export function shapeTyped(w: Walk, node: Schema, depth: number, atRoot: boolean): unknown {
  let type = node.type;
  let edits: Edits | undefined;
  if (type === undefined) {
    const inferred = atRoot ? 'object' : inferType(node);
    if (inferred === undefined) {
      return liftHere(w, 'type_missing', 'declares no `type`, so any value fits', undefined);
    }
    const rule = atRoot ? 'root_not_object' : 'type_missing';
    repaired(w, rule, 'declares no `type`', `read it as "${inferred}" from its keywords`);
    edits = edit(edits);
    edits.set.push(['type', inferred]);
    type = inferred;
  }
  if (!isPortableType(type)) {
    if (atRoot)
      return liftHere(
        w,
        'root_not_object',
        `the root must be an object, not ${JSON.stringify(type)}`,
        undefined,
      );
    if (type === 'null')
      return liftHere(w, 'type_invalid', 'a `null` type accepts nothing but null', ['null']);
    return liftHere(w, 'type_invalid', `\`type\` ${JSON.stringify(type)} is not portable`, undefined, 'type');
  }
  if (atRoot && type !== 'object') {
    return liftHere(w, 'root_not_object', `the root must be an object, not "${type}"`, undefined);
  }
  const result = checkKeywords(w, node, type, atRoot, edits);
  if (result instanceof Lift) return result;
  edits = result;
  const children =
    type === 'object'
      ? shapeObject(w, node, depth, atRoot, edits)
      : type === 'array'
        ? shapeArray(w, node, depth, edits)
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
  out.drop.push(key);
  return out;
}

/** The keyword pass: every key is kept, or dropped with an issue saying why. */
function checkKeywords(
  w: Walk,
  node: Schema,
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
        edits = checkMapKeyword(w, node, key, type, atRoot, edits);
        break;
      default:
        if (key === 'prefixItems' && type === 'array') {
          return liftHere(
            w,
            'keyword_unsupported',
            'a tuple (`prefixItems`) has no portable form',
            ['array'],
            key,
          );
        }
        edits = dropKey(w, edits, key, 'keyword_unsupported', `\`${key}\` is not portable`);
    }
  }
  if (node.enum !== undefined) return checkEnum(w, node, type, edits);
  return edits;
}

const INLINED = 'dropped it (every reference into it is inlined)';

function isFiniteNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}

/** `additionalProperties` / `patternProperties`: dropped beside properties; a map otherwise. */
function checkMapKeyword(
  w: Walk,
  node: Schema,
  key: string,
  type: PortableType,
  atRoot: boolean,
  edits: Edits | undefined,
): Edits | undefined {
  const value = node[key];
  if (type !== 'object')
    return dropKey(w, edits, key, 'keyword_misplaced', `\`${key}\` does not apply to a ${type}`);
  if (hasProperties(node) || (atRoot && (value === false || !isPlainObject(value)))) {
    return dropKey(w, edits, key, 'keyword_unsupported', `\`${key}\` is not portable`);
  }
  if (!atRoot) return edits;
  const fix = 'offered an object that takes any keys (the tool still checks them)';
  return dropKey(w, edits, key, 'object_properties_missing', 'a map at the root has no portable schema', fix);
}

function hasProperties(node: Schema): boolean {
  if (!isPlainObject(node.properties)) return false;
  for (const _ in node.properties) return true;
  return false;
}

function checkEnum(w: Walk, node: Schema, type: PortableType, edits: Edits | undefined): Edits | undefined {
  const values = node.enum;
  if (type !== 'string')
    return dropKey(w, edits, 'enum', 'enum_invalid', `an \`enum\` on a ${type} is not portable`);
  if (!Array.isArray(values)) return dropKey(w, edits, 'enum', 'enum_invalid', '`enum` must be a list');
  const kept: string[] = [];
  let changed = false;
  for (const v of values) {
    if (typeof v !== 'string' || kept.includes(v)) changed = true;
    else kept.push(v);
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
    out.set.push(['description', describeChoices(node, listed)]);
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
  out.set.push(['enum', kept]);
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
  depth: number,
  atRoot: boolean,
  edits: Edits | undefined,
): Edits | Lift | undefined {
  const props = node.properties;
  if (props !== undefined && !isPlainObject(props)) {
    repaired(w, 'node_not_schema', '`properties` must be an object', 'dropped it', 'properties');
    edits = edit(edits);
    edits.drop.push('properties');
  }
  if (!isPlainObject(props) || !hasProperties(node)) {
    if (!atRoot) {
      const map = node.additionalProperties !== undefined || node.patternProperties !== undefined;
      const detail = map
        ? 'a map (an object with no declared property, keyed freely) has no portable schema'
        : 'an object with no declared property (free-form) has no portable schema';
      return liftHere(w, 'object_properties_missing', detail, ['object']);
    }
    if (!isPlainObject(props)) {
      const fix = 'added an empty `properties` (the tool takes no named arguments)';
      repaired(w, 'object_properties_missing', 'the root declares no `properties`', fix);
      edits = edit(edits);
      edits.set.push(['properties', {}]);
    }
    return checkRequired(w, node, {}, edits);
  }
  let shaped: Schema | undefined;
  const parent = w.path;
  const names = Object.keys(props);
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i] as string;
    const declared = props[name];
    w.path = parent === '' ? `properties.${name}` : `${parent}.properties.${name}`;
    w.args.push(name);
    const issueMark = w.issues.length;
    const liftMark = w.lifted.length;
    let result = walkNode(w, declared, depth + 1);
    if (result instanceof Lift) {
      w.issues.length = issueMark;
      w.lifted.length = liftMark;
      recordLift(w, result);
      const text = liftedSchema(w.resolve, declared);
      w.liftedNodes.add(text);
      result = text;
    }
    w.path = parent;
    w.args.pop();
    if (result !== declared && shaped === undefined) {
      shaped = {};
      for (let j = 0; j < i; j += 1) put(shaped, names[j] as string, props[names[j] as string]);
    }
    if (shaped !== undefined) put(shaped, name, result);
  }
  if (shaped !== undefined) {
    edits = edit(edits);
    edits.set.push(['properties', shaped]);
  }
  return checkRequired(w, node, props, edits);
}

function checkRequired(w: Walk, node: Schema, props: Schema, edits: Edits | undefined): Edits | undefined {
  const required = node.required;
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
  if (kept.length === 0) edits.drop.push('required');
  else edits.set.push(['required', kept]);
  return edits;
}

function shapeArray(
  w: Walk,
  node: Schema,
  depth: number,
  edits: Edits | undefined,
): Edits | Lift | undefined {
  const items = node.items;
  if (
    items === undefined ||
    items === true ||
    items === false ||
    (isPlainObject(items) && Object.keys(items).length === 0)
  ) {
    const extra = items === undefined ? undefined : 'items';
    return liftHere(
      w,
      'array_items_missing',
      'a list must declare the schema of its `items`',
      ['array'],
      extra,
    );
  }
  if (Array.isArray(items)) {
    return liftHere(
      w,
      'keyword_unsupported',
      'a tuple (`items` as a list of schemas) has no portable form',
      ['array'],
      'items',
    );
  }
  const parent = w.path;
  w.path = pathHere(w, 'items');
  w.args.push(EVERY_ELEMENT);
  const result = walkNode(w, items, depth + 1);
  w.path = parent;
  w.args.pop();
  if (result instanceof Lift) return result.widen(takesOf(w.resolve, node));
  if (result === items) return edits;
  edits = edit(edits);
  edits.set.push(['items', result]);
  return edits;
}

/** A copy of `node` with the edits applied; `type` first when it was set. */
function rebuild(node: Schema, edits: Edits): Schema {
  const out: Schema = {};
  const sets = new Map(edits.set);
  if (sets.has('type') && !Object.hasOwn(node, 'type')) out.type = sets.get('type');
  for (const key in node) {
    if (edits.drop.includes(key)) continue;
    put(out, key, sets.has(key) ? sets.get(key) : node[key]);
  }
  for (const [key, value] of sets) if (!Object.hasOwn(out, key)) put(out, key, value);
  return out;
}
