import type { JsonObject, JsonValue } from '../../core/json.js';
import type { AnyField, Fields, JsonShape } from './field.js';

const JSON_TEXT_NOTE: Record<JsonShape, string> = {
  any: 'Send this value as JSON text.',
  object: 'Send this object as JSON text.',
  list: 'Send this list as JSON text.',
};

function withNote(description: string | undefined, note: string): string {
  return description === undefined || description.trim() === '' ? note : `${description.trimEnd()} ${note}`;
}

/** Sets `key` when `value` is defined (keeps the schema free of undefined-valued keys). */
function put(schema: JsonObject, key: string, value: JsonValue | undefined): void {
  if (value !== undefined) schema[key] = value;
}

/** The schema one field is offered as; only keywords of the portable profile, in its key order. */
export function fieldSchema(spec: AnyField): JsonObject {
  switch (spec.kind) {
    case 'string': {
      const schema: JsonObject = { type: 'string' };
      put(schema, 'description', spec.description);
      put(schema, 'default', spec.default);
      put(schema, 'maxLength', spec.maxLength);
      put(schema, 'minLength', spec.minLength);
      const offered = spec.enum?.filter((v) => v !== '').sort();
      if (offered !== undefined && offered.length > 0) schema['enum'] = offered;
      return schema;
    }
    case 'integer':
    case 'number': {
      const schema: JsonObject = { type: spec.kind };
      put(schema, 'description', spec.description);
      put(schema, 'default', spec.default);
      put(schema, 'maximum', spec.max);
      put(schema, 'minimum', spec.min);
      return schema;
    }
    case 'boolean': {
      const schema: JsonObject = { type: 'boolean' };
      put(schema, 'description', spec.description);
      put(schema, 'default', spec.default ?? spec.safe);
      return schema;
    }
    case 'consent':
      return { type: 'boolean', description: withNote(spec.description, 'Only true confirms.') };
    case 'json':
      return { type: 'string', description: withNote(spec.description, JSON_TEXT_NOTE[spec.shape]) };
    case 'list': {
      const schema: JsonObject = { type: 'array' };
      put(schema, 'description', spec.description);
      put(schema, 'maxItems', spec.maxItems);
      put(schema, 'minItems', spec.minItems);
      schema['items'] = fieldSchema(spec.items);
      return schema;
    }
    case 'object': {
      const schema: JsonObject = { type: 'object' };
      put(schema, 'description', spec.description);
      return Object.assign(schema, objectBody(spec.fields));
    }
  }
}

function objectBody(fields: Fields): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(fields)) {
    properties[name] = fieldSchema(spec);
    if (spec.required) required.push(name);
  }
  return required.length > 0 ? { properties, required } : { properties };
}

/** The parameters schema a tool is offered, generated from its field specs (portable as declared). */
export function offeredSchema(fields: Fields): JsonObject {
  return { type: 'object', ...objectBody(fields) };
}
