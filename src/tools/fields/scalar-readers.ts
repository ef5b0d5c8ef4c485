import { isPlainObject } from '../../core/json.js';
import { type ArgumentProblem, describeValue } from '../arguments/argument-problem.js';
import { readJsonText } from '../arguments/json-text.js';
import type {
  BooleanField,
  ConsentField,
  IntegerField,
  JsonField,
  NumberField,
  StringField,
} from './field.js';
import { yesOrNo } from './yes-or-no.js';

/** Returned by a reader when the value was refused (its problems are already recorded). */
export const INVALID: unique symbol = Symbol('invalid');
/** Returned by a reader when the value means "not given" (e.g. a blank JSON text). */
export const ABSENT: unique symbol = Symbol('absent');

/** Reads one value at `path`, recording problems in `out`; returns the value the handler gets, or a marker. */
export type Reader = (value: unknown, path: string, out: ArgumentProblem[]) => unknown;

const NUMERIC_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Records a wrong-type problem and returns INVALID. */
export function wrongType(
  out: ArgumentProblem[],
  path: string,
  wanted: string,
  value: unknown,
): typeof INVALID {
  out.push({ path, code: 'wrong_type', message: `expected ${wanted}, got ${describeValue(value)}` });
  return INVALID;
}

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Reads a text field: its length, allowed values and pattern. */
export function stringReader(spec: StringField): Reader {
  const { maxLength, minLength, trim } = spec;
  const allowed = spec.enum ? new Set<string>(spec.enum) : undefined;
  const listed = spec.enum?.join(', ');
  const pattern = spec.pattern
    ? new RegExp(spec.pattern.source, spec.pattern.flags.replace(/[gy]/g, ''))
    : undefined;
  return (value, path, out) => {
    if (typeof value !== 'string') return wrongType(out, path, 'text', value);
    const text = trim ? value.trim() : value;
    if (maxLength !== undefined && text.length > maxLength) {
      const length = codePoints(text);
      if (length > maxLength) {
        out.push({
          path,
          code: 'too_long',
          message: `is ${length} characters long; the most it takes is ${maxLength}`,
        });
        return INVALID;
      }
    }
    if (minLength !== undefined && text.length < minLength * 2 && codePoints(text) < minLength) {
      const message = text === '' ? 'is empty' : `is shorter than ${minLength} characters`;
      out.push({ path, code: 'too_short', message: `${message}; it needs at least ${minLength}` });
      return INVALID;
    }
    if (allowed && !allowed.has(text)) {
      out.push({ path, code: 'not_allowed', message: `${JSON.stringify(text)} is not one of: ${listed}` });
      return INVALID;
    }
    if (pattern && !pattern.test(text)) {
      const message = `${JSON.stringify(text)} does not have the expected form (pattern ${pattern.source})`;
      out.push({ path, code: 'pattern', message });
      return INVALID;
    }
    return text;
  };
}

/** Reads an integer or number field; numeric text is read as the number it spells. */
export function numberReader(spec: IntegerField | NumberField): Reader {
  const { min, max } = spec;
  const whole = spec.kind === 'integer';
  const wanted = whole ? 'a whole number' : 'a number';
  return (value, path, out) => {
    let n = value;
    if (typeof n === 'string') {
      const text = n.trim();
      if (!NUMERIC_TEXT.test(text)) return wrongType(out, path, wanted, value);
      n = Number(text);
    }
    if (typeof n !== 'number' || !Number.isFinite(n)) return wrongType(out, path, wanted, value);
    if (whole && !Number.isInteger(n)) return wrongType(out, path, wanted, n);
    if (min !== undefined && n < min) {
      out.push({ path, code: 'too_small', message: `${n} is below the minimum, ${min}` });
      return INVALID;
    }
    if (max !== undefined && n > max) {
      out.push({ path, code: 'too_large', message: `${n} is above the maximum, ${max}` });
      return INVALID;
    }
    return n;
  };
}

/** Reads a yes/no field as the word it spells; otherwise its safe value, or a refusal naming it. */
export function booleanReader(spec: BooleanField): Reader {
  const { safe } = spec;
  return (value, path, out) => {
    const read = yesOrNo(value);
    if (read !== undefined) return read;
    if (safe !== undefined) return safe;
    const message = `${describeValue(value)} reads as neither yes nor no; send true or false`;
    out.push({ path, code: 'unreadable_boolean', message });
    return INVALID;
  };
}

/** Reads a consent field: the JSON literal `true` consents; an optional one also takes `false`. */
export function consentReader(spec: ConsentField): Reader {
  const optional = !spec.required;
  return (value, path, out) => {
    if (value === true) return true;
    if (value === false && optional) return false;
    const message = `only the JSON value true gives consent here, not ${describeValue(value)}`;
    out.push({ path, code: 'consent', message });
    return INVALID;
  };
}

/** Reads a free-form value carried as JSON text (an already structured value passes through). */
export function jsonReader(spec: JsonField): Reader {
  const { shape } = spec;
  return (value, path, out) => {
    let decoded = value;
    if (typeof value === 'string') {
      if (value.trim() === '') return ABSENT;
      const reading = readJsonText(value);
      if (!reading.ok) {
        out.push({ path, code: 'invalid_json', message: reading.problem });
        return INVALID;
      }
      decoded = reading.value;
    }
    if (shape === 'object' && !isPlainObject(decoded)) return wrongType(out, path, 'a JSON object', decoded);
    if (shape === 'list' && !Array.isArray(decoded)) return wrongType(out, path, 'a JSON list', decoded);
    return decoded;
  };
}
