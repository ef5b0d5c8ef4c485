import { isPlainObject } from '../core/json.js';

const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,128}$/;
const JSON_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
const SCHEMA_INVALID =
  'JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at https://docs.claude.com/en/docs/tool-use.';

const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
const TOOL_USE_ID_REFUSED = "String should match pattern '^[a-zA-Z0-9_-]+$'";

const PROPERTY_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;
/** The words Anthropic (and Claude on Bedrock) answer a top-level property key outside that pattern with. */
export const KEY_REFUSED = "Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'";

/** True when the schema's top-level properties hold a key Anthropic refuses. */
export function hasRefusedKey(schema: Record<string, unknown>): boolean {
  const props = schema['properties'];
  return isPlainObject(props) && Object.keys(props).some((k) => !PROPERTY_KEY.test(k));
}

function isSchema(node: unknown): boolean {
  return typeof node === 'boolean' || isPlainObject(node);
}

/** Whether `node` is a well-formed draft 2020-12 schema, in the parts a tool schema uses. */
function validSchema(node: unknown, depth = 0): boolean {
  if (typeof node === 'boolean') return true;
  if (!isPlainObject(node) || depth > 40) return false;
  const type = node['type'];
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  if (!types.every((t) => typeof t === 'string' && JSON_TYPES.has(t))) return false;
  const required = node['required'];
  if (required !== undefined && (!Array.isArray(required) || !required.every((r) => typeof r === 'string')))
    return false;
  if ('enum' in node && !Array.isArray(node['enum'])) return false;
  const props = node['properties'];
  if (
    props !== undefined &&
    (!isPlainObject(props) || !Object.values(props).every((p) => validSchema(p, depth + 1)))
  )
    return false;
  if ('items' in node && !(isSchema(node['items']) && validSchema(node['items'], depth + 1))) return false;
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = node[key];
    if (list !== undefined && (!Array.isArray(list) || !list.every((s) => validSchema(s, depth + 1))))
      return false;
  }
  return true;
}

function toolMessage(tool: unknown, i: number): string | undefined {
  const at = `tools.${i}.custom`;
  if (!isPlainObject(tool)) return `tools.${i}: Input should be a valid dictionary or object`;
  const name = tool['name'];
  if (typeof name !== 'string') return `${at}.name: Field required`;
  if (name.length > 128) return `${at}.name: String should have at most 128 characters`;
  if (!NAME_PATTERN.test(name)) return `${at}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
  const schema = tool['input_schema'];
  if (!isPlainObject(schema)) return `${at}.input_schema: Field required`;
  if (!('type' in schema)) return `${at}.input_schema.type: Field required`;
  if (schema['type'] !== 'object') return `${at}.input_schema.type: Input should be 'object'`;
  if ('oneOf' in schema || 'anyOf' in schema || 'allOf' in schema) {
    return `${at}.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level`;
  }
  if (hasRefusedKey(schema)) return `${at}.input_schema.properties: ${KEY_REFUSED}`;
  return validSchema(schema) ? undefined : `${at}.input_schema: ${SCHEMA_INVALID}`;
}

function blocks(message: unknown): Record<string, unknown>[] {
  const content = isPlainObject(message) ? message['content'] : undefined;
  return Array.isArray(content) ? content.filter(isPlainObject) : [];
}

function idsOf(list: Record<string, unknown>[], type: string, key: string): string[] {
  return list.filter((b) => b['type'] === type).map((b) => String(b[key] ?? ''));
}

function conversationMessage(messages: unknown[]): string | undefined {
  for (let n = 0; n < messages.length; n += 1) {
    const current = blocks(messages[n]);
    const blank = current.findIndex(
      (b) => b['type'] === 'text' && (typeof b['text'] !== 'string' || b['text'].trim() === ''),
    );
    if (blank >= 0) {
      const text = current[blank]?.['text'];
      return text === ''
        ? `messages.${n}.content.${blank}.text: text content blocks must be non-empty`
        : `messages: text content blocks must contain non-whitespace text`;
    }
    const badId = current.findIndex(
      (b) => b['type'] === 'tool_use' && !TOOL_USE_ID.test(typeof b['id'] === 'string' ? b['id'] : ''),
    );
    // as the API answers a history whose call ids came from another provider (farion1231/cc-switch#1181)
    if (badId >= 0) return `messages.${n}.content.${badId}.tool_use.id: ${TOOL_USE_ID_REFUSED}`;
    const results = idsOf(current, 'tool_result', 'tool_use_id');
    const offered = n > 0 ? idsOf(blocks(messages[n - 1]), 'tool_use', 'id') : [];
    const stray = results.filter((id) => !offered.includes(id));
    if (stray.length > 0) {
      return `messages.${n}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    const uses = idsOf(current, 'tool_use', 'id');
    const answered =
      n + 1 < messages.length ? idsOf(blocks(messages[n + 1]), 'tool_result', 'tool_use_id') : [];
    const open = uses.filter((id) => !answered.includes(id));
    if (open.length > 0 && n + 1 < messages.length) {
      return `messages.${n + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${open.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
  }
  return undefined;
}

/** What the Messages API says of a request it refuses (400, `invalid_request_error`), or undefined. */
export function anthropicFailure(body: Record<string, unknown>): string | undefined {
  if (typeof body['model'] !== 'string') return 'model: Field required';
  if (typeof body['max_tokens'] !== 'number') return 'max_tokens: Field required';
  const messages = body['messages'];
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  const tools = body['tools'];
  if (tools !== undefined) {
    if (!Array.isArray(tools)) return 'tools: Input should be a valid list';
    for (let i = 0; i < tools.length; i += 1) {
      const failure = toolMessage(tools[i], i);
      if (failure) return failure;
    }
    const names = tools.map((t) => (isPlainObject(t) ? t['name'] : undefined));
    if (new Set(names).size !== names.length) return 'tools: Tool names must be unique.';
  }
  // As the API answered a request replaying tool blocks without tools (anthropic-sdk-python#494).
  const hasTools = Array.isArray(tools) && tools.length > 0;
  if (
    !hasTools &&
    messages.some((m) => blocks(m).some((b) => b['type'] === 'tool_use' || b['type'] === 'tool_result'))
  ) {
    return 'Requests which include tool_use or tool_result blocks must define tools.';
  }
  return conversationMessage(messages);
}
