import type {
  ContentBlock,
  ConverseStreamCommandInput,
  Message,
  Tool,
  ToolResultBlock,
} from '@aws-sdk/client-bedrock-runtime';
import type { ChatMessage, ModelRequest, WireTool } from '../../core/model.js';
import { BLOCK_ID, blockCallIds } from '../shared/block-call-ids.js';
import { groupTurns, type WireTurn } from '../shared/group-turns.js';
import { MessageForms } from '../shared/message-forms.js';
import { argumentsObject } from '../shared/tool-call-assembler.js';
import { toolCallText, toolResultText } from '../shared/tool-history-text.js';

/** Options that shape a Converse request. */
export interface BedrockRequestOptions {
  readonly model: string;
  /** Send `toolResult.status` (only some model families accept it). */
  readonly toolResultStatus: boolean;
  readonly defaultMaxTokens: number | undefined;
}

/** True for model ids whose Converse support takes `toolResult.status` (Anthropic Claude, Amazon Nova). */
export function acceptsToolResultStatus(modelId: string): boolean {
  return /anthropic|claude|nova/i.test(modelId);
}

/** One tool in Converse form. */
export function toBedrockTool(tool: WireTool): Tool {
  return {
    toolSpec: {
      name: tool.name,
      description: tool.description,
      inputSchema: { json: tool.parameters as Record<string, never> },
    },
  };
}

/** How the conversation's tool blocks travel. */
export interface BlockOptions {
  /** Send `toolResult.status`. */
  readonly withStatus: boolean;
  /**
   * Tell earlier tool calls and results as text: Converse refuses `toolUse` / `toolResult` blocks in a
   * request without `toolConfig`, and `toolConfig` needs at least one tool.
   */
  readonly toolsAsText: boolean;
}

function blocksOf(message: ChatMessage, options: BlockOptions, idOf: (id: string) => string): BedrockForm {
  switch (message.role) {
    case 'user':
      // Converse refuses blank text blocks
      return { role: 'user', blocks: message.content.trim() === '' ? [] : [{ text: message.content }] };
    case 'tool': {
      if (options.toolsAsText) return { role: 'user', blocks: [{ text: toolResultText(message) }] };
      const result: ToolResultBlock = {
        toolUseId: idOf(message.toolCallId),
        content: [{ text: message.content === '' ? '(no output)' : message.content }],
      };
      if (options.withStatus) result.status = message.isError ? 'error' : 'success';
      return { role: 'user', blocks: [{ toolResult: result }] };
    }
    case 'assistant': {
      const blocks: ContentBlock[] = [];
      if (message.content.trim() !== '') blocks.push({ text: message.content });
      for (const call of message.toolCalls ?? []) {
        if (options.toolsAsText) {
          blocks.push({ text: toolCallText(call) });
          continue;
        }
        blocks.push({
          toolUse: {
            toolUseId: idOf(call.id),
            name: call.name,
            input: argumentsObject(call.arguments) as Record<string, never>,
          },
        });
      }
      return { role: 'assistant', blocks };
    }
  }
}

/** One message as a role and its content blocks. */
type BedrockForm = WireTurn<ContentBlock>;

/** Each message's blocks, kept between requests (`MessageForms`); the variant is `variantOf` the options. */
export type BedrockForms = MessageForms<BedrockForm, number>;

/** The block options as one number: 1 = with status, 2 = tools as text. */
const variantOf = (o: BlockOptions): number => (o.withStatus ? 1 : 0) + (o.toolsAsText ? 2 : 0);

/** A cache of each message's blocks for the requests of one adapter. */
export function bedrockForms(): BedrockForms {
  return new MessageForms((message, idOf, variant: number) =>
    blocksOf(message, { withStatus: (variant & 1) !== 0, toolsAsText: (variant & 2) !== 0 }, idOf),
  );
}

/**
 * The conversation as Converse messages; consecutive messages of one role share a message. Call ids
 * Converse refuses (`toolUseId` is 1–64 of `[a-zA-Z0-9_-]`; another provider's may not be) travel as ids it takes.
 * With `forms`, each message's blocks are made once and reused by later requests.
 */
export function toBedrockMessages(
  messages: readonly ChatMessage[],
  options: BlockOptions,
  forms?: BedrockForms,
): Message[] {
  const made = forms
    ? forms.list(messages, variantOf(options), BLOCK_ID, () => blockCallIds(messages))
    : madeNow(messages, options);
  return groupTurns(made, (f) => f).map((t) => ({ role: t.role, content: t.blocks }));
}

/** Each message's blocks, made for this request alone. */
function madeNow(messages: readonly ChatMessage[], options: BlockOptions): BedrockForm[] {
  const idOf = blockCallIds(messages);
  return messages.map((m) => blocksOf(m, options, idOf));
}

/** A provider-neutral request in Converse / ConverseStream form (each message's blocks kept in `forms` when given). */
export function toBedrockRequest(
  request: ModelRequest,
  options: BedrockRequestOptions,
  forms?: BedrockForms,
): ConverseStreamCommandInput {
  const blockOptions = { withStatus: options.toolResultStatus, toolsAsText: request.tools.length === 0 };
  const input: ConverseStreamCommandInput = {
    modelId: options.model,
    messages: toBedrockMessages(request.messages, blockOptions, forms),
  };
  if (request.system.trim() !== '') input.system = [{ text: request.system }];
  // toolConfig must carry at least one tool when it is sent at all
  if (request.tools.length > 0) input.toolConfig = { tools: request.tools.map(toBedrockTool) };
  const maxTokens = request.maxTokens ?? options.defaultMaxTokens;
  if (maxTokens !== undefined || request.temperature !== undefined) {
    input.inferenceConfig = {};
    if (maxTokens !== undefined) input.inferenceConfig.maxTokens = maxTokens;
    if (request.temperature !== undefined) input.inferenceConfig.temperature = request.temperature;
  }
  return input;
}
