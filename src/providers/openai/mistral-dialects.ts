import { isPlainObject } from '../../core/json.js';
import { inRange, NOTHING_FOUND, type RejectionDialect } from '../shared/rejection-dialect.js';
import { pythonRepr } from './python-repr.js';

/** FastAPI-style validation (Mistral 422): `loc: ["body","tools",N,…]`, possibly with a union tag before N. */
export const validationLocations: RejectionDialect = (evidence, sent) => {
  const indices: number[] = [];
  let sawPath = false;
  for (const loc of evidence.locations) {
    const at = loc.indexOf('tools');
    if (at < 0) continue;
    const index = loc.slice(at + 1, at + 3).find((part) => typeof part === 'number');
    if (index === undefined) continue;
    sawPath = true;
    if (inRange(index, sent)) indices.push(index);
  }
  return { indices, sawPath, byName: false };
};

function subschemas(node: unknown, out: unknown[], depth = 0): unknown[] {
  if (depth > 24) return out;
  if (Array.isArray(node)) {
    for (const item of node) subschemas(item, out, depth + 1);
  } else if (isPlainObject(node)) {
    if (Object.keys(node).length >= 2) out.push(node);
    for (const value of Object.values(node)) subschemas(value, out, depth + 1);
  }
  return out;
}

/**
 * Mistral's `Invalid tool schema: {python repr} …`: the tool whose parameters print that way, else the
 * tools carrying a sub-schema that does (every tool carrying it is rejected for the same reason).
 */
export const pythonReprSchemas: RejectionDialect = (evidence, sent) => {
  const texts = evidence.texts.filter((t) => /tool schema/i.test(t));
  if (texts.length === 0) return NOTHING_FOUND;
  const has = (node: unknown) => {
    const printed = pythonRepr(node);
    return texts.some((t) => t.includes(printed));
  };
  let indices = sent.flatMap((tool, i) => (has(tool.parameters) ? [i] : []));
  if (indices.length === 0) {
    indices = sent.flatMap((tool, i) => (subschemas(tool.parameters, []).some(has) ? [i] : []));
  }
  return { indices, sawPath: false, byName: true };
};
