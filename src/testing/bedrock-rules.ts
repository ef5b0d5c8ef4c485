import { isPlainObject } from '../core/json.js';
import { hasRefusedKey, KEY_REFUSED } from './anthropic-rules.js';

const NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

function specsOf(body: Record<string, unknown>): Record<string, unknown>[] | undefined {
  const config = body['toolConfig'];
  if (!isPlainObject(config)) return undefined;
  const tools = Array.isArray(config['tools']) ? config['tools'] : [];
  return tools.map((t) => (isPlainObject(t) && isPlainObject(t['toolSpec']) ? t['toolSpec'] : {}));
}

/** Coral's member constraints, numbered from 1 and listed together as Bedrock does. */
function constraintFailures(specs: Record<string, unknown>[]): string[] {
  const out: string[] = [];
  const fails = (value: string, at: string, rule: string) =>
    out.push(`Value '${value}' at '${at}' failed to satisfy constraint: Member must ${rule}`);
  specs.forEach((spec, i) => {
    const at = `toolConfig.tools.${i + 1}.member.toolSpec`;
    const name = typeof spec['name'] === 'string' ? spec['name'] : '';
    if (!NAME_PATTERN.test(name))
      fails(name, `${at}.name`, 'satisfy regular expression pattern: [a-zA-Z0-9_-]+');
    if (name.length < 1) fails(name, `${at}.name`, 'have length greater than or equal to 1');
    if (name.length > 64) fails(name, `${at}.name`, 'have length less than or equal to 64');
    const description = spec['description'];
    if (description === '') fails('', `${at}.description`, 'have length greater than or equal to 1');
  });
  return out;
}

/**
 * Coral's constraints on the tool blocks of the conversation: `toolUseId` and a `toolUse`'s `name` are
 * each 1–64 of `[a-zA-Z0-9_-]`, as a tool definition's name is.
 */
function historyConstraintFailures(messages: unknown[]): string[] {
  const out: string[] = [];
  const check = (value: string, at: string) => {
    const fails = (rule: string) =>
      out.push(`Value '${value}' at '${at}' failed to satisfy constraint: Member must ${rule}`);
    if (!NAME_PATTERN.test(value)) fails('satisfy regular expression pattern: [a-zA-Z0-9_-]+');
    if (value.length > 64) fails('have length less than or equal to 64');
  };
  messages.forEach((message, n) => {
    contentOf(message).forEach((block, k) => {
      for (const kind of ['toolUse', 'toolResult'] as const) {
        const member = block[kind];
        if (!isPlainObject(member)) continue;
        const at = `messages.${n + 1}.member.content.${k + 1}.member.${kind}`;
        check(typeof member['toolUseId'] === 'string' ? member['toolUseId'] : '', `${at}.toolUseId`);
        if (kind === 'toolUse') check(typeof member['name'] === 'string' ? member['name'] : '', `${at}.name`);
      }
    });
  });
  return out;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Bedrock's own schema checks, numbered from 0. */
function schemaFailure(spec: Record<string, unknown>, i: number, claude: boolean): string | undefined {
  const input = spec['inputSchema'];
  const json = isPlainObject(input) ? input['json'] : undefined;
  if (!isPlainObject(json)) {
    return `The format of the value at toolConfig.tools.${i}.toolSpec.inputSchema.json is invalid. Provide a json object for the field and try again.`;
  }
  if (json['type'] !== 'object') {
    return `The value at toolConfig.tools.${i}.toolSpec.inputSchema.json.type must be one of the following: object.`;
  }
  if ('properties' in json && !isPlainObject(json['properties'])) {
    return `The json schema definition at toolConfig.tools.${i}.toolSpec.inputSchema is invalid. Fix the following errors and try again: $.properties: ${kindOf(json['properties'])} found, object expected`;
  }
  // a Claude model's own validator answers these; Bedrock relays its words behind a prefix
  const relayed = 'The model returned the following errors: ';
  if (claude && ('oneOf' in json || 'anyOf' in json || 'allOf' in json)) {
    return `${relayed}tools.${i}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level`;
  }
  if (claude && hasRefusedKey(json))
    return `${relayed}tools.${i}.custom.input_schema.properties: ${KEY_REFUSED}`;
  return undefined;
}

function contentOf(message: unknown): Record<string, unknown>[] {
  const content = isPlainObject(message) ? message['content'] : undefined;
  return Array.isArray(content) ? content.filter(isPlainObject) : [];
}

function messageFailure(messages: unknown[], hasTools: boolean): string | undefined {
  let open: string[] = [];
  for (let n = 0; n < messages.length; n += 1) {
    const content = contentOf(messages[n]);
    const blank = content.findIndex((b) => typeof b['text'] === 'string' && b['text'].trim() === '');
    if (blank >= 0) {
      return `The text field in the ContentBlock object at messages.${n}.content.${blank} is blank. Add text to the text field, and try again.`;
    }
    const uses = content.flatMap((b) =>
      isPlainObject(b['toolUse']) ? [String(b['toolUse']['toolUseId'])] : [],
    );
    const results = content.flatMap((b) =>
      isPlainObject(b['toolResult']) ? [String(b['toolResult']['toolUseId'])] : [],
    );
    if ((uses.length > 0 || results.length > 0) && !hasTools) {
      return 'The toolConfig field must be defined when using toolUse and toolResult content blocks.';
    }
    if (results.some((id) => !open.includes(id)) || open.some((id) => !results.includes(id))) {
      return `The toolResult blocks at messages.${n}.content do not match the toolUse blocks of the previous turn.`;
    }
    open = uses;
  }
  return undefined;
}

/** What Bedrock says of a Converse request it refuses (400 `ValidationException`), or undefined. */
export function bedrockFailure(body: Record<string, unknown>, modelId: string): string | undefined {
  const specs = specsOf(body);
  if (specs !== undefined && specs.length === 0) {
    return "1 validation error detected: Value at 'toolConfig.tools' failed to satisfy constraint: Member must have length greater than or equal to 1";
  }
  const messages = body['messages'];
  const constraints = [
    ...constraintFailures(specs ?? []),
    ...historyConstraintFailures(Array.isArray(messages) ? messages : []),
  ];
  if (constraints.length > 0) {
    const n = constraints.length;
    return `${n} validation error${n > 1 ? 's' : ''} detected: ${constraints.join('; ')}`;
  }
  const claude = /anthropic|claude/i.test(modelId);
  for (let i = 0; i < (specs ?? []).length; i += 1) {
    const failure = schemaFailure(specs?.[i] ?? {}, i, claude);
    if (failure) return failure;
  }
  if (!Array.isArray(messages) || messages.length === 0) {
    return 'A conversation must start with a user message. Try again with a conversation that starts with a user message.';
  }
  return messageFailure(messages, specs !== undefined);
}
