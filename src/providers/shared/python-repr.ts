import { isPlainObject } from '../../core/json.js';

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
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

/**
 * How a Python service prints a JSON value (`repr` of what `json.loads` gives). Mistral quotes a
 * rejected tool's parameters this way, so matching it is how such a rejection finds its tool.
 */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return reprString(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (isPlainObject(value)) {
    const items = Object.entries(value).map(([k, v]) => `${reprString(k)}: ${pythonRepr(v)}`);
    return `{${items.join(', ')}}`;
  }
  return 'None';
}
