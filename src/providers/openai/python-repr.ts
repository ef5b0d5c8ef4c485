import { isPlainObject } from '../../core/json.js';

/** What Python's `str.isprintable` refuses: control, format, surrogate, private, unassigned, separators but the space. */
const NOT_PRINTABLE = /^[\p{C}\p{Z}]$/u;

/** A character as Python escapes it: `\xhh`, `\uhhhh` or `\Uhhhhhhhh` by its code point. */
function escaped(code: number): string {
  const hex = code.toString(16);
  if (code <= 0xff) return `\\x${hex.padStart(2, '0')}`;
  return code <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\U${hex.padStart(8, '0')}`;
}

function reprString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch !== ' ' && NOT_PRINTABLE.test(ch)) out += escaped(code);
    else out += ch;
  }
  return out + quote;
}

/**
 * A JSON number as Python prints what `json.loads` made of it. An integer travels without a point and
 * becomes an `int`; any other number is a `float`, which Python prints with the same shortest digits as
 * JavaScript but in exponent form below 1e-4 and from 1e16 on, with a signed exponent of two digits at
 * least (`1e-05`, where JavaScript writes `0.00001`).
 */
function reprNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
  const [mantissa = '', exponent = '0'] = value.toExponential().split('e');
  const power = Number(exponent);
  if (power >= -4 && power < 16) return String(value);
  const digits = String(Math.abs(power)).padStart(2, '0');
  return `${mantissa}e${power < 0 ? '-' : '+'}${digits}`;
}

/**
 * How a Python service prints a JSON value (`repr` of what `json.loads` gives). Mistral quotes a
 * rejected tool's parameters this way, so matching it is how such a rejection finds its tool.
 */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return reprNumber(value);
  if (typeof value === 'string') return reprString(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (isPlainObject(value)) {
    const items = Object.entries(value).map(([k, v]) => `${reprString(k)}: ${pythonRepr(v)}`);
    return `{${items.join(', ')}}`;
  }
  return 'None';
}
