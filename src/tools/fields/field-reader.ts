import { isPlainObject } from '../../core/json.js';
import type { ArgumentProblem } from '../arguments/argument-problem.js';
import { looksLikeJsonContainer, readJsonText } from '../arguments/json-text.js';
import { foldedKey, keySpellings } from '../arguments/key-spellings.js';
import { nearMiss } from '../arguments/near-miss.js';
import { checkFieldSpec } from './check-field-spec.js';
import type { AnyField, Fields, ListField } from './field.js';
import {
  ABSENT,
  booleanReader,
  consentReader,
  INVALID,
  jsonReader,
  numberReader,
  type Reader,
  stringReader,
  wrongType,
} from './scalar-readers.js';
import { ToolDefinitionError } from './tool-definition-error.js';

/** Where a reader is being built: the tool, and the declared path (`filter.since`, `steps[]`). */
interface Site {
  readonly tool: string;
  readonly path: string;
}

/** Builds the reader of one field spec, checking the spec itself first (throws ToolDefinitionError). */
export function fieldReader(spec: AnyField, site: Site): Reader {
  checkFieldSpec(spec, site);
  switch (spec.kind) {
    case 'string':
      return stringReader(spec);
    case 'integer':
    case 'number':
      return numberReader(spec);
    case 'boolean':
      return booleanReader(spec);
    case 'consent':
      return consentReader(spec);
    case 'json':
      return jsonReader(spec);
    case 'list':
      return listReader(spec, site);
    case 'object':
      return objectReader(spec.fields, site);
  }
}

/** Decodes an object or list a model sent as JSON text; bad JSON is reported with the decoder's detail. */
function containerFromText(text: string, list: boolean, path: string, out: ArgumentProblem[]): unknown {
  const wanted = list ? 'a list' : 'an object';
  if (!looksLikeJsonContainer(text)) return wrongType(out, path, wanted, text);
  const reading = readJsonText(text);
  if (!reading.ok) {
    out.push({ path, code: 'invalid_json', message: reading.problem });
    return INVALID;
  }
  const decoded = reading.value;
  if (list ? Array.isArray(decoded) : isPlainObject(decoded)) return decoded;
  return wrongType(out, path, `${wanted} (JSON text)`, decoded);
}

function listReader(spec: ListField, site: Site): Reader {
  const item = fieldReader(spec.items, { tool: site.tool, path: `${site.path}[]` });
  const { maxItems, minItems } = spec;
  return (value, path, out) => {
    const list = typeof value === 'string' ? containerFromText(value, true, path, out) : value;
    if (list === INVALID) return INVALID;
    if (!Array.isArray(list)) return wrongType(out, path, 'a list', list);
    if (maxItems !== undefined && list.length > maxItems) {
      out.push({
        path,
        code: 'too_many',
        message: `has ${list.length} items; the most it takes is ${maxItems}`,
      });
      return INVALID;
    }
    if (minItems !== undefined && list.length < minItems) {
      out.push({ path, code: 'too_few', message: `has ${list.length} items; it needs at least ${minItems}` });
      return INVALID;
    }
    const result: unknown[] = new Array(list.length);
    let bad = false;
    for (let i = 0; i < list.length; i++) {
      const read = item(list[i], `${path}[${i}]`, out);
      if (read === INVALID || read === ABSENT) {
        if (read === ABSENT) out.push({ path: `${path}[${i}]`, code: 'required', message: 'is blank' });
        bad = true;
      } else result[i] = read;
    }
    return bad ? INVALID : result;
  };
}

interface Entry {
  readonly name: string;
  readonly index: number;
  readonly read: Reader;
  readonly spec: AnyField;
  /** What an absent value becomes (undefined: nothing). */
  readonly fallback: unknown;
}

const NOT_GIVEN = 0;
const GIVEN = 1;
const NULL_GIVEN = 2;

/**
 * Builds the reader of an object's declared fields: spellings (camelCase, PascalCase, snake_case, and any
 * letter case or separators where only one declared key reads so), unknown keys, required fields, defaults.
 */
export function objectReader(fields: Fields, site: Site, owner = site.tool): Reader {
  if (!isPlainObject(fields)) {
    const problem = 'fields is an object of field specs by name, e.g. { city: field.string() }';
    throw new ToolDefinitionError(site.tool, site.path, problem);
  }
  const entries: Entry[] = [];
  const bySpelling = new Map<string, Entry>();
  const byFold = new Map<string, Entry | typeof AMBIGUOUS>();
  for (const [name, spec] of Object.entries(fields)) {
    const path = site.path === '' ? name : `${site.path}.${name}`;
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
      throw new ToolDefinitionError(
        site.tool,
        path,
        'a field name is a letter followed by letters, digits or _',
      );
    }
    const read = fieldReader(spec, { tool: site.tool, path });
    // An absent value becomes the default as the field reads it (a text default is trimmed like a sent one).
    const declared = absentValue(spec);
    const fallback = declared === undefined ? undefined : read(declared, path, []);
    if (fallback === INVALID) {
      throw new ToolDefinitionError(site.tool, path, 'its default is not a value the field accepts');
    }
    const entry: Entry = { name, index: entries.length, read, spec, fallback };
    entries.push(entry);
    for (const spelling of keySpellings(name)) {
      const other = bySpelling.get(spelling);
      if (other) {
        throw new ToolDefinitionError(site.tool, path, `spells the same key as ${other.name} (${spelling})`);
      }
      bySpelling.set(spelling, entry);
    }
    // Two declared keys that fold alike (abc, aBc) are each read only by their own spellings.
    const folded = foldedKey(name);
    byFold.set(folded, byFold.has(folded) ? AMBIGUOUS : entry);
  }
  const names = entries.map((e) => e.name);
  const listed = names.join(', ');
  const root = site.path === '';
  const unknown = root ? 'unknown argument' : 'unknown field';
  const takes = (path: string): string =>
    names.length === 0 ? `${owner} takes no arguments` : `${root ? owner : path} takes: ${listed}`;
  return (value, path, out) => {
    const given = typeof value === 'string' ? containerFromText(value, false, path, out) : value;
    if (given === INVALID) return INVALID;
    if (!isPlainObject(given)) return wrongType(out, path, 'an object', given);
    const result: Record<string, unknown> = {};
    const state = new Uint8Array(entries.length);
    const spelled: string[] = [];
    let bad = false;
    for (const key of Object.keys(given)) {
      const entry = bySpelling.get(key) ?? unambiguous(byFold.get(foldedKey(key)));
      const at = path === '' ? (entry?.name ?? key) : `${path}.${entry?.name ?? key}`;
      if (entry === undefined) {
        const guess = nearMiss(key, names);
        const hint = guess === undefined ? '' : ` (did you mean ${guess}?)`;
        out.push({ path: at, code: 'unknown_argument', message: `${unknown}${hint}; ${takes(path)}` });
        bad = true;
        continue;
      }
      if (state[entry.index] !== NOT_GIVEN) {
        const message = `given twice, as ${spelled[entry.index]} and ${key}; send it once`;
        out.push({ path: at, code: 'duplicate_argument', message });
        bad = true;
        continue;
      }
      spelled[entry.index] = key;
      const raw = given[key];
      if (raw === null || raw === undefined) {
        state[entry.index] = NULL_GIVEN;
        continue;
      }
      state[entry.index] = GIVEN;
      const read = entry.read(raw, at, out);
      if (read === INVALID) bad = true;
      else if (read === ABSENT) state[entry.index] = NULL_GIVEN;
      else result[entry.name] = read;
    }
    for (const entry of entries) {
      if (state[entry.index] === GIVEN) continue;
      if (entry.fallback !== undefined) result[entry.name] = entry.fallback;
      else if (entry.spec.required) {
        const at = path === '' ? entry.name : `${path}.${entry.name}`;
        out.push({ path: at, code: 'required', message: requiredMessage(entry.spec) });
        bad = true;
      }
    }
    return bad ? INVALID : result;
  };
}

/** Marks a folded key that two declared keys share. */
const AMBIGUOUS: unique symbol = Symbol('ambiguous');

function unambiguous(entry: Entry | typeof AMBIGUOUS | undefined): Entry | undefined {
  return entry === AMBIGUOUS ? undefined : entry;
}

function absentValue(spec: AnyField): unknown {
  switch (spec.kind) {
    case 'string':
    case 'integer':
    case 'number':
      return spec.default;
    case 'boolean':
      return spec.default ?? spec.safe;
    case 'consent':
      return spec.required ? undefined : false;
    default:
      return undefined;
  }
}

function requiredMessage(spec: AnyField): string {
  return spec.kind === 'consent' ? 'is required: send true to confirm' : 'is required but was not given';
}
