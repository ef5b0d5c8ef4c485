import type { JsonObject } from '../../../core/json.js';
import { isPlainObject } from '../../../core/json.js';
import { foldedKey } from '../../arguments/key-spellings.js';
import { contractSchema } from './contract-schema.js';

/** The HTTP methods an OpenAPI path item can hold. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Where one argument of a contract tool goes in the request. */
export type ArgumentSlot =
  | {
      readonly in: 'path' | 'query' | 'header';
      readonly name: string;
      readonly style?: string;
      readonly explode?: boolean;
    }
  /** One key of a JSON object body (the body's own keys offered beside the parameters). */
  | { readonly in: 'body-key'; readonly name: string }
  /** The whole body (it is not an object of its own keys, or a key collides with a parameter). */
  | { readonly in: 'body'; readonly name: string };

/** One operation of the contract as a tool: its name, words, declared schema and where each argument goes. */
export interface ContractOperation {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly description: string;
  /** The contract's schema for the arguments: every object closed, as the boundary enforces it. */
  readonly parameters: JsonObject;
  /** Argument name → where it goes. */
  readonly slots: ReadonlyMap<string, ArgumentSlot>;
  /** Media type of the body, when the operation takes one. */
  readonly bodyType?: string;
}

/** The argument that carries a whole body when its keys cannot be offered on their own. */
export const BODY_ARGUMENT = 'body';

/**
 * Every operation of a dereferenced document, as tools (header parameters named in `configHeaders`, lower
 * case, left out: the app's config sends them). Path-item parameters are inherited (an
 * operation's own of the same name and place win). Parameters keep their declared names; a JSON object
 * body offers its keys beside them, unless one of its keys folds to the same as a parameter's name
 * (`user_id` and `userId`), a body is not an object of its own keys, or a body is optional — then the body is the one
 * argument `body` (and a parameter already named `body` makes it `request_body`).
 */
export function contractOperations(
  document: JsonObject,
  configHeaders: ReadonlySet<string> = new Set(),
): ContractOperation[] {
  const nullable = typeof document.openapi === 'string' && document.openapi.startsWith('3.0');
  const out: ContractOperation[] = [];
  const paths = isPlainObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isPlainObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isPlainObject(operation)) continue;
      out.push(toOperation(method, path, operation, listOf(item.parameters), { nullable, configHeaders }));
    }
  }
  return out;
}

function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

/** `get /pets/{id}` → `get_pets_id`: a name for an operation without an operationId. */
export function operationName(method: string, path: string): string {
  const words = path
    .replace(/[{}]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '');
  return [method, ...words].join('_');
}

function toOperation(
  method: string,
  path: string,
  operation: Record<string, unknown>,
  inherited: Record<string, unknown>[],
  { nullable, configHeaders }: { nullable: boolean; configHeaders: ReadonlySet<string> },
): ContractOperation {
  const name =
    typeof operation.operationId === 'string' && operation.operationId.trim() !== ''
      ? operation.operationId.trim()
      : operationName(method, path);
  const words = [operation.summary, operation.description].filter(
    (w): w is string => typeof w === 'string' && w.trim() !== '',
  );
  const description = [...new Set(words.map((w) => w.trim()))].join('\n\n');
  const defs = new Map<string, JsonObject>();
  const copy = { nullable, defs, request: true };
  const properties: Record<string, JsonObject> = {};
  const required: string[] = [];
  const slots = new Map<string, ArgumentSlot>();
  const own = listOf(operation.parameters);
  const key = (p: Record<string, unknown>) => `${String(p.in)}:${String(p.name)}`;
  const ownKeys = new Set(own.map(key));
  for (const parameter of [...inherited.filter((p) => !ownKeys.has(key(p))), ...own]) {
    const where = parameter.in;
    if (where !== 'path' && where !== 'query' && where !== 'header') continue;
    if (typeof parameter.name !== 'string') continue;
    // A cookie, or a header the HTTP layer sets itself, is the config's business, never the model's.
    if (where === 'header' && /^(accept|content-type|authorization)$/i.test(parameter.name)) continue;
    // A header the app's config sets (an API version, an API key) is never the model's to send.
    if (where === 'header' && configHeaders.has(parameter.name.toLowerCase())) continue;
    const schema = contractSchema(parameter.schema ?? firstMediaSchema(parameter.content) ?? {}, copy);
    if (typeof parameter.description === 'string' && schema.description === undefined) {
      schema.description = parameter.description;
    }
    properties[parameter.name] = schema;
    if (parameter.required === true || where === 'path') required.push(parameter.name);
    slots.set(parameter.name, {
      in: where,
      name: parameter.name,
      ...(typeof parameter.style === 'string' ? { style: parameter.style } : {}),
      ...(typeof parameter.explode === 'boolean' ? { explode: parameter.explode } : {}),
    });
  }
  const body = requestBody(operation.requestBody);
  let bodyType: string | undefined;
  if (body !== undefined) {
    bodyType = body.type;
    const schema = contractSchema(body.schema, copy);
    const folded = new Set(Object.keys(properties).map(foldedKey));
    const keys = isPlainObject(schema.properties) ? Object.keys(schema.properties) : undefined;
    const spread =
      body.required &&
      keys !== undefined &&
      schema.type === 'object' &&
      schema.additionalProperties === false &&
      !('oneOf' in schema || 'anyOf' in schema || 'allOf' in schema) &&
      keys.every((k) => !folded.has(foldedKey(k)));
    if (spread && keys !== undefined && isPlainObject(schema.properties)) {
      for (const k of keys) {
        properties[k] = schema.properties[k] as JsonObject;
        slots.set(k, { in: 'body-key', name: k });
      }
      if (Array.isArray(schema.required)) required.push(...(schema.required as string[]));
    } else {
      const argument = BODY_ARGUMENT in properties ? 'request_body' : BODY_ARGUMENT;
      properties[argument] =
        body.description === undefined ? schema : { ...schema, description: body.description };
      if (body.required) required.push(argument);
      slots.set(argument, { in: 'body', name: argument });
    }
  }
  const parameters: JsonObject = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) parameters.required = [...new Set(required)];
  if (defs.size > 0) parameters.$defs = Object.fromEntries(defs);
  return {
    name,
    method: method.toUpperCase(),
    path,
    description,
    parameters,
    slots,
    ...(bodyType === undefined ? {} : { bodyType }),
  };
}

function firstMediaSchema(content: unknown): unknown {
  if (!isPlainObject(content)) return undefined;
  const first = Object.values(content)[0];
  return isPlainObject(first) ? first.schema : undefined;
}

/** The operation's body: a JSON media type's schema first (then a form's, sent as JSON is not), whether required. */
function requestBody(
  value: unknown,
): { schema: unknown; type: string; required: boolean; description?: string } | undefined {
  if (!isPlainObject(value) || !isPlainObject(value.content)) return undefined;
  const types = Object.keys(value.content);
  const type =
    types.find((t) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(t)) ??
    types.find((t) => t === 'application/x-www-form-urlencoded') ??
    types[0];
  if (type === undefined) return undefined;
  const media = value.content[type];
  const schema = isPlainObject(media) ? (media.schema ?? {}) : {};
  return {
    schema,
    type,
    required: value.required === true,
    ...(typeof value.description === 'string' ? { description: value.description } : {}),
  };
}
