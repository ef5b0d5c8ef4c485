import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ChatMessage, WireTool } from '../../core/model.js';
import { MessageForms } from '../shared/message-forms.js';
import { toOpenAIMessage } from './openai-message.js';
import { toOpenAITool } from './openai-tool.js';

/** One tool's wire form, what it was made from, and its bytes once asked for. */
interface ToolEntry {
  readonly tool: Pick<WireTool, 'name' | 'description' | 'parameters'>;
  readonly param: ChatCompletionTool;
  listed?: Buffer;
}

/** `,` and the JSON of `param`, in UTF-8: a list's items, each led by its separator. */
const listedBytes = (param: object): Buffer => Buffer.from(`,${JSON.stringify(param)}`);

/**
 * The Chat Completions form of each history message (see `MessageForms`) and offered tool, made once and
 * reused by later requests, with its JSON as UTF-8 bytes: every request would otherwise serialize the
 * whole conversation and its tools again. A tool's entry is keyed by the tool object and checked by its
 * name, description and parameters object (a schema is never changed in place once offered).
 */
export class OpenAIWireCache {
  private readonly messages = new MessageForms<ChatCompletionMessageParam>(toOpenAIMessage);
  private readonly byTool = new WeakMap<WireTool, ToolEntry>();
  private readonly byParam = new WeakMap<ChatCompletionTool, ToolEntry>();
  /** The last entry made from each parameters object. */
  private readonly byParameters = new WeakMap<WireTool['parameters'], ToolEntry>();
  /** The last system message made, and its bytes once asked for (a runtime sends the same prompt again). */
  private system:
    | { readonly param: ChatCompletionMessageParam & { content: string }; listed?: Buffer }
    | undefined;

  /** The system message holding `text`, the kept one while the text is the same. */
  systemMessage(text: string): ChatCompletionMessageParam {
    if (this.system?.param.content !== text) this.system = { param: { role: 'system', content: text } };
    return this.system.param;
  }

  /** The wire form of `message`, the kept one when it was made from the values the message holds now. */
  message(message: ChatMessage, idOf: (id: string) => string): ChatCompletionMessageParam {
    return this.messages.of(message, idOf, undefined);
  }

  /**
   * The wire form of `tool`, the kept one while the tool's name, description and parameters are the same.
   * A tool object made again for each request around the same parameters object (as the runtime does for
   * some built-in tools) finds its entry through that object.
   */
  tool(tool: WireTool): ChatCompletionTool {
    const own = this.byTool.get(tool);
    const kept = own ?? this.byParameters.get(tool.parameters);
    const was = kept?.tool;
    if (
      kept &&
      was?.name === tool.name &&
      was.description === tool.description &&
      was.parameters === tool.parameters
    ) {
      if (own === undefined) this.byTool.set(tool, kept);
      return kept.param;
    }
    const { name, description, parameters } = tool;
    const entry: ToolEntry = { tool: { name, description, parameters }, param: toOpenAITool(tool) };
    this.byTool.set(tool, entry);
    this.byParam.set(entry.param, entry);
    this.byParameters.set(parameters, entry);
    return entry.param;
  }

  /**
   * `,` and the message's JSON in UTF-8 (the separator comes with it, so a list is one part per item),
   * kept for the forms this cache made (the system message among them); any other (a note put between
   * messages) is encoded each time.
   */
  listedMessage(param: ChatCompletionMessageParam): Buffer {
    const system = this.system;
    if (system !== undefined && param === system.param) {
      system.listed ??= listedBytes(param);
      return system.listed;
    }
    return this.messages.bytes(param, listedBytes);
  }

  /** `,` and the tool's JSON in UTF-8, kept for the forms this cache made. */
  listedTool(param: ChatCompletionTool): Buffer {
    const entry = this.byParam.get(param);
    if (entry?.listed !== undefined) return entry.listed;
    const bytes = listedBytes(param);
    if (entry !== undefined) entry.listed = bytes;
    return bytes;
  }
}
