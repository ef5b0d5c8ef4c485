import { isPlainObject } from '../core/json.js';

/** An OpenAI-style validation failure: what goes in `{"error": {...}}`. */
export interface OpenAIFailure {
  readonly message: string;
  readonly param: string | null;
  readonly code: string | null;
}

const NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

function tuple(path: readonly (string | number)[]): string {
  const items = path.map((p) => (typeof p === 'number' ? String(p) : `'${p}'`));
  return `(${items.join(', ')}${items.length === 1 ? ',' : ''})`;
}

function typesOf(node: Record<string, unknown>): string[] {
  const type = node['type'];
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

/** The first array without `items` under `node`, as OpenAI's `In context=(…)` path. */
function arrayMissingItems(node: unknown, path: (string | number)[], depth = 0): string | undefined {
  if (!isPlainObject(node) || depth > 40) return undefined;
  if (typesOf(node).includes('array') && !('items' in node)) return tuple(path);
  const props = node['properties'];
  if (isPlainObject(props)) {
    for (const [key, child] of Object.entries(props)) {
      const found = arrayMissingItems(child, [...path, 'properties', key], depth + 1);
      if (found) return found;
    }
  }
  if ('items' in node) {
    const found = arrayMissingItems(node['items'], [...path, 'items'], depth + 1);
    if (found) return found;
  }
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i += 1) {
      const found = arrayMissingItems(list[i], [...path, key, i], depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

function schemaFailure(name: string, index: number, parameters: unknown): OpenAIFailure | undefined {
  const param = `tools[${index}].function.parameters`;
  const fail = (detail: string) => ({
    message: `Invalid schema for function '${name}': ${detail}`,
    param,
    code: 'invalid_function_parameters',
  });
  if (!isPlainObject(parameters))
    return fail(`${parameters === null ? 'None' : JSON.stringify(parameters)} is not of type 'object'.`);
  if (parameters['type'] !== 'object') {
    const got = typeof parameters['type'] === 'string' ? parameters['type'] : 'None';
    return fail(`schema must be a JSON Schema of 'type: "object"', got 'type: "${got}"'.`);
  }
  if (!('properties' in parameters)) return fail('In context=(), object schema missing properties.');
  const missing = arrayMissingItems(parameters, []);
  return missing ? fail(`In context=${missing}, array schema missing items.`) : undefined;
}

function toolFailure(tool: unknown, i: number): OpenAIFailure | undefined {
  const fn = isPlainObject(tool) ? tool['function'] : undefined;
  if (!isPlainObject(tool) || tool['type'] !== 'function' || !isPlainObject(fn)) {
    return {
      message: `Invalid value for 'tools[${i}]': expected a function tool.`,
      param: `tools[${i}]`,
      code: 'invalid_value',
    };
  }
  const name = fn['name'];
  if (typeof name !== 'string') {
    return {
      message: `Missing required parameter: 'tools[${i}].function.name'.`,
      param: `tools[${i}].function.name`,
      code: 'missing_required_parameter',
    };
  }
  if (!NAME_PATTERN.test(name)) {
    return {
      message: `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      param: `tools[${i}].function.name`,
      code: 'invalid_value',
    };
  }
  if (name.length > 64) {
    return {
      message: `Invalid 'tools[${i}].function.name': string too long. Expected a string with maximum length 64, but got a string with length ${name.length} instead.`,
      param: `tools[${i}].function.name`,
      code: 'string_above_max_length',
    };
  }
  const description = fn['description'];
  if (typeof description === 'string' && description.length > 1024) {
    return {
      message: `Invalid 'tools[${i}].function.description': string too long. Expected a string with maximum length 1024, but got a string with length ${description.length} instead.`,
      param: `tools[${i}].function.description`,
      code: 'string_above_max_length',
    };
  }
  return 'parameters' in fn ? schemaFailure(name, i, fn['parameters']) : undefined;
}

/** Tool definitions as OpenAI checks them: count, name pattern and length, description length, schema. */
export function openaiToolFailure(tools: unknown): OpenAIFailure | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools))
    return { message: "Invalid type for 'tools': expected an array.", param: 'tools', code: 'invalid_type' };
  if (tools.length > 128) {
    return {
      message: `Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length ${tools.length} instead.`,
      param: 'tools',
      code: 'array_above_max_length',
    };
  }
  for (let i = 0; i < tools.length; i += 1) {
    const failure = toolFailure(tools[i], i);
    if (failure) return failure;
  }
  return undefined;
}

function unanswered(ids: readonly string[], param: string): OpenAIFailure {
  return {
    message: `An assistant message with 'tool_calls' must be followed by tool messages answering each 'tool_call_id'; these have none: ${ids.join(', ')}.`,
    param,
    code: null,
  };
}

/** The conversation as OpenAI checks it: every tool call answered, every tool message answering one. */
export function openaiMessageFailure(messages: unknown): OpenAIFailure | undefined {
  if (!Array.isArray(messages) || messages.length === 0) {
    return {
      message: "Invalid 'messages': expected a non-empty array of messages.",
      param: 'messages',
      code: 'empty_array',
    };
  }
  let open: string[] = [];
  for (let i = 0; i < messages.length; i += 1) {
    const m = messages[i];
    const role = isPlainObject(m) ? m['role'] : undefined;
    if (role === 'tool') {
      const id = isPlainObject(m) ? m['tool_call_id'] : undefined;
      if (typeof id !== 'string' || !open.includes(id)) {
        return {
          message: `Invalid parameter: the message with role 'tool' at messages[${i}] does not answer a tool call of the assistant message before it.`,
          param: `messages.[${i}].role`,
          code: null,
        };
      }
      open = open.filter((x) => x !== id);
      continue;
    }
    if (open.length > 0) {
      return unanswered(open, `messages.[${i}].role`);
    }
    const calls =
      isPlainObject(m) && role === 'assistant' && Array.isArray(m['tool_calls']) ? m['tool_calls'] : [];
    open = calls.flatMap((c) => (isPlainObject(c) && typeof c['id'] === 'string' ? [c['id']] : []));
  }
  if (open.length > 0) {
    return unanswered(open, 'messages');
  }
  return undefined;
}
