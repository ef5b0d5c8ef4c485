/**
 * An independent, strict reading of the portable profile, for the tests only: written from the
 * profile's text and the field set of Gemini's `Schema` message (gemini-schema-proto.md), without
 * calling the seam. It answers every reason a schema would not be portable; [] means portable.
 */

/** Fields of Gemini's v1beta `Schema` message (JSON names). */
const GEMINI_SCHEMA_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
]);

/** The profile's keywords: kept on every node, then those of one type only. */
const EVERY_NODE = ['type', 'description', 'title', 'default', 'enum', 'format'];
const BY_TYPE: Record<string, string[]> = {
  object: ['properties', 'required', 'minProperties', 'maxProperties'],
  array: ['items', 'minItems', 'maxItems'],
  string: ['minLength', 'maxLength', 'pattern'],
  number: ['minimum', 'maximum'],
  integer: ['minimum', 'maximum'],
  boolean: [],
};
const COUNTS = ['minProperties', 'maxProperties', 'minItems', 'maxItems', 'minLength', 'maxLength'];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every reason `schema` is not a portable tool-parameters schema. */
export function strictProblems(schema: unknown): string[] {
  const problems: string[] = [];
  if (!isObject(schema)) return ['the root is not an object'];
  if (schema.type !== 'object') problems.push('the root is not of type object');
  for (const k of ['anyOf', 'oneOf', 'allOf', 'not', 'enum']) {
    if (k in schema) problems.push(`the root carries ${k}`);
  }
  if (!isObject(schema.properties)) problems.push('the root has no properties object');
  checkNode(schema, 'root', problems, true);
  return problems;
}

function checkNode(node: unknown, at: string, problems: string[], root = false): void {
  if (!isObject(node)) {
    problems.push(`${at}: not a schema object`);
    return;
  }
  for (const key of Object.keys(node)) {
    if (!GEMINI_SCHEMA_FIELDS.has(key)) problems.push(`${at}: ${key} is not a field of Gemini's Schema`);
  }
  if ('anyOf' in node) {
    for (const key of Object.keys(node)) {
      if (key !== 'anyOf' && key !== 'description') problems.push(`${at}: ${key} beside anyOf`);
    }
    if (typeof node.description !== 'string' && 'description' in node)
      problems.push(`${at}: description not text`);
    const branches = node.anyOf;
    if (!Array.isArray(branches) || branches.length === 0)
      problems.push(`${at}: anyOf is not a non-empty list`);
    else for (const [i, b] of branches.entries()) checkNode(b, `${at}.anyOf[${i}]`, problems);
    return;
  }
  const type = node.type;
  if (typeof type !== 'string' || !(type in BY_TYPE)) {
    problems.push(`${at}: type ${JSON.stringify(type)} is not one of the six`);
    return;
  }
  const allowed = new Set([...EVERY_NODE, ...(BY_TYPE[type] ?? [])]);
  for (const key of Object.keys(node)) {
    if (!allowed.has(key)) problems.push(`${at}: ${key} on a ${type}`);
  }
  for (const key of ['description', 'title', 'pattern']) {
    if (key in node && typeof node[key] !== 'string') problems.push(`${at}: ${key} is not text`);
  }
  for (const key of ['minimum', 'maximum']) {
    if (key in node && (typeof node[key] !== 'number' || !Number.isFinite(node[key]))) {
      problems.push(`${at}: ${key} is not a number`);
    }
  }
  for (const key of COUNTS) {
    const v = node[key];
    if (key in node && !(typeof v === 'number' && Number.isInteger(v) && v >= 0)) {
      problems.push(`${at}: ${key} is not a count`);
    }
  }
  if ('format' in node && !(type === 'string' && node.format === 'date-time')) {
    problems.push(`${at}: format ${JSON.stringify(node.format)}`);
  }
  if ('enum' in node) {
    const values = node.enum;
    if (type !== 'string') problems.push(`${at}: enum on a ${type}`);
    if (!Array.isArray(values) || values.length === 0) problems.push(`${at}: enum is not a non-empty list`);
    else {
      if (values.some((v) => typeof v !== 'string' || v === ''))
        problems.push(`${at}: enum value not a non-empty string`);
      if (new Set(values).size !== values.length) problems.push(`${at}: enum values repeat`);
    }
  }
  if (type === 'array') {
    if (!isObject(node.items) || Object.keys(node.items).length === 0)
      problems.push(`${at}: array without items`);
    else checkNode(node.items, `${at}.items`, problems);
  }
  if (type === 'object') {
    const props = node.properties;
    if (!isObject(props)) {
      if (!root || 'properties' in node) problems.push(`${at}: properties is not an object`);
      return;
    }
    if (!root && Object.keys(props).length === 0) problems.push(`${at}: a nested object without properties`);
    for (const [name, sub] of Object.entries(props)) {
      // Anthropic and Bedrock check every property key against this (written from their 400s).
      if (!/^[a-zA-Z0-9_.-]{1,64}$/.test(name))
        problems.push(`${at}: property key ${JSON.stringify(name)} is refused`);
      checkNode(sub, `${at}.${name}`, problems);
    }
    if ('required' in node) {
      const req = node.required;
      if (!Array.isArray(req)) problems.push(`${at}: required is not a list`);
      else {
        for (const r of req) {
          if (typeof r !== 'string' || !Object.hasOwn(props, r))
            problems.push(`${at}: required ${String(r)} undeclared`);
        }
        if (new Set(req).size !== req.length) problems.push(`${at}: required repeats`);
      }
    }
  }
}

/** The wire name every provider accepts. */
export const STRICT_WIRE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
