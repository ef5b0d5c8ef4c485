import { isPlainObject } from '../core/json.js';

/** A Gemini refusal: the message, and the field violations a proto-parse error lists. */
export interface GeminiFailure {
  readonly message: string;
  readonly violations?: readonly { readonly field?: string; readonly description: string }[];
}

/** The fields of Gemini's `Schema` message, by every JSON name its parser accepts. */
const SCHEMA_FIELDS = new Set(
  [
    'type format title description nullable enum items properties required minimum maximum pattern example default',
    'maxItems max_items minItems min_items minProperties min_properties maxProperties max_properties',
    'minLength min_length maxLength max_length anyOf any_of propertyOrdering property_ordering',
  ]
    .join(' ')
    .split(' '),
);
const TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);
const SCHEMA_TYPE = 'type.googleapis.com/google.ai.generativelanguage.v1beta.Schema';
const TYPE_ENUM = 'type.googleapis.com/google.ai.generativelanguage.v1beta.Type';

/** OpenAI request fields Gemini's compatible endpoint knows; any other is an unknown-field error. */
const KNOWN_REQUEST_FIELDS = new Set([
  'model',
  'messages',
  'tools',
  'tool_choice',
  'stream',
  'stream_options',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'n',
  'stop',
  'seed',
  'response_format',
  'reasoning_effort',
  'frequency_penalty',
  'presence_penalty',
  'extra_body',
]);

const NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

function typeOf(node: Record<string, unknown>): string | undefined {
  return typeof node['type'] === 'string' ? node['type'].toUpperCase() : undefined;
}

/** The proto-parse pass: unknown fields and values that do not fit, properties named by position. */
function parseViolations(node: unknown, path: string, out: string[], depth = 0): void {
  if (depth > 40) return;
  if (!isPlainObject(node)) {
    out.push(`Invalid value at '${path}' (${SCHEMA_TYPE}), ${JSON.stringify(node)}`);
    return;
  }
  for (const key of Object.keys(node)) {
    if (!SCHEMA_FIELDS.has(key))
      out.push(`Invalid JSON payload received. Unknown name "${key}" at '${path}': Cannot find field.`);
  }
  const type = node['type'];
  if (type !== undefined && (typeof type !== 'string' || !TYPES.has(type.toUpperCase()))) {
    out.push(`Invalid value at '${path}.type' (${TYPE_ENUM}), ${JSON.stringify(type)}`);
  }
  const enumValues = node['enum'];
  if (Array.isArray(enumValues)) {
    enumValues.forEach((v, i) => {
      if (typeof v !== 'string')
        out.push(`Invalid value at '${path}.enum[${i}]' (TYPE_STRING), ${JSON.stringify(v)}`);
    });
  }
  const props = node['properties'];
  if (isPlainObject(props)) {
    Object.values(props).forEach((child, i) => {
      parseViolations(child, `${path}.properties[${i}].value`, out, depth + 1);
    });
  }
  if ('items' in node) parseViolations(node['items'], `${path}.items`, out, depth + 1);
  const anyOf = node['anyOf'] ?? node['any_of'];
  if (Array.isArray(anyOf)) {
    anyOf.forEach((c, i) => {
      parseViolations(c, `${path}.any_of[${i}]`, out, depth + 1);
    });
  }
}

/** The semantic pass: what Gemini's validator says of a schema that parsed, properties named by key. */
function semanticViolations(
  node: Record<string, unknown>,
  path: string,
  root: boolean,
  out: string[],
  depth = 0,
): void {
  if (depth > 40) return;
  const type = typeOf(node);
  const anyOf = node['anyOf'] ?? node['any_of'];
  if (type === undefined && !Array.isArray(anyOf)) {
    out.push(`${path}.type: must be specified when not using one_of, any_of or all_of fields`);
  }
  if (type === 'ARRAY' && !('items' in node)) out.push(`${path}.items: missing field.`);
  const props = isPlainObject(node['properties']) ? node['properties'] : {};
  // an empty root object is how an argument-less tool travels through the compatible endpoint
  if (type === 'OBJECT' && !root && Object.keys(props).length === 0) {
    out.push(`${path}.properties: should be non-empty for OBJECT type`);
  }
  if ('enum' in node && type !== 'STRING') out.push(`${path}.enum: only allowed for STRING type`);
  const format = node['format'];
  if (type === 'STRING' && typeof format === 'string' && format !== 'enum' && format !== 'date-time') {
    out.push(`${path}.format: only 'enum' and 'date-time' are supported for STRING type`);
  }
  const required = node['required'];
  if (Array.isArray(required)) {
    required.forEach((name, i) => {
      if (typeof name !== 'string' || !Object.hasOwn(props, name))
        out.push(`${path}.required[${i}]: property is not defined`);
    });
  }
  for (const [key, child] of Object.entries(props)) {
    if (isPlainObject(child)) semanticViolations(child, `${path}.properties[${key}]`, false, out, depth + 1);
  }
  if (isPlainObject(node['items'])) semanticViolations(node['items'], `${path}.items`, false, out, depth + 1);
  if (Array.isArray(anyOf)) {
    anyOf.forEach((c, i) => {
      if (isPlainObject(c)) semanticViolations(c, `${path}.any_of[${i}]`, false, out, depth + 1);
    });
  }
}

function functionsOf(tools: unknown): Record<string, unknown>[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((t) => (isPlainObject(t) && isPlainObject(t['function']) ? t['function'] : {}));
}

/**
 * Gemini's rules applied to an OpenAI-compatible request, in Gemini's words: unknown request fields and
 * schema fields Gemini's `Schema` does not have (the proto parse, first), then its semantic checks on
 * names and schemas. Declarations are `tools[0].function_declarations[i]` for OpenAI's `tools[i]`.
 */
export function geminiFailure(body: Record<string, unknown>): GeminiFailure | undefined {
  const unknown = Object.keys(body).filter((k) => !KNOWN_REQUEST_FIELDS.has(k));
  if (unknown.length > 0) {
    const texts = unknown.map(
      (k) => `Invalid JSON payload received. Unknown name "${k}": Cannot find field.`,
    );
    return { message: texts.join('\n'), violations: texts.map((description) => ({ description })) };
  }
  const functions = functionsOf(body['tools']);
  const parse: { field: string; description: string }[] = [];
  functions.forEach((fn, k) => {
    if (!('parameters' in fn)) return;
    const base = `tools[0].function_declarations[${k}].parameters`;
    const found: string[] = [];
    parseViolations(fn['parameters'], base, found);
    for (const description of found) {
      parse.push({ field: /at '([^']+)'/.exec(description)?.[1] ?? base, description });
    }
  });
  if (parse.length > 0) return { message: parse.map((v) => v.description).join('\n'), violations: parse };
  const lines: string[] = [];
  functions.forEach((fn, k) => {
    const at = `GenerateContentRequest.tools[0].function_declarations[${k}]`;
    const name = fn['name'];
    if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
      lines.push(
        `${at}.name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64.`,
      );
    }
    const params = fn['parameters'];
    if (isPlainObject(params)) semanticViolations(params, `${at}.parameters`, true, lines);
  });
  if (lines.length === 0) return undefined;
  return { message: lines.map((line) => `* ${line}\n`).join('') };
}
