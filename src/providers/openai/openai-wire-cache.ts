import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ChatMessage, WireTool } from '../../core/model.js';
import { RecentMap } from '../../core/recent-map.js';
import { schemaJson } from '../../core/schema-json.js';
import { MessageForms } from '../shared/message-forms.js';
import { type SettledHead, SettledHeads } from '../shared/settled-heads.js';
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

/** `listedBytes` of `toOpenAITool(tool)`, with the parameters' JSON text made once per schema object. */
function listedToolBytes(tool: Pick<WireTool, 'name' | 'description' | 'parameters'>): Buffer {
  const head = `,{"type":"function","function":{"name":${JSON.stringify(tool.name)},"description":${JSON.stringify(tool.description)}`;
  return Buffer.from(`${head},"parameters":${schemaJson(tool.parameters)}}}`);
}

/** How many parts a conversation's kept bytes may be in before they are joined into one. */
const MAX_KEPT_PARTS = 32;

/** How many conversations' bytes are kept: a runtime keeps as many sessions' conversations. */
const KEPT_CONVERSATIONS = 64;

/**
 * The settled head of a conversation's last request (see `isSettled`): its messages, and the forms they
 * gave in request order (a note put between two included, a blank reply left out).
 */
export interface MappedHead extends SettledHead {
  readonly forms: readonly ChatCompletionMessageParam[];
  /** The role of the head's last message that was sent (a blank reply left out is not). */
  readonly previous: ChatMessage['role'] | undefined;
  /** Whether the forms hold the notes put after tool results (`assistantAfterToolResults`). */
  readonly notes: boolean;
}

/** True when `list` holds `forms` from `start` on, the same objects in the same order. */
function startsWith(
  list: readonly ChatCompletionMessageParam[],
  start: number,
  forms: readonly ChatCompletionMessageParam[],
): boolean {
  if (list.length - start < forms.length) return false;
  for (let i = 0; i < forms.length; i += 1) if (list[start + i] !== forms[i]) return false;
  return true;
}

/**
 * The Chat Completions form of each history message (see `MessageForms`) and offered tool, made once and
 * reused by later requests, with its JSON as UTF-8 bytes: every request would otherwise serialize the
 * whole conversation and its tools again. A tool's entry is keyed by the tool object and checked by its
 * name, description and parameters object (a schema is never changed in place once offered).
 */
export class OpenAIWireCache {
  private readonly forms = new MessageForms<ChatCompletionMessageParam>(toOpenAIMessage);
  private readonly byTool = new WeakMap<WireTool, ToolEntry>();
  private readonly byParam = new WeakMap<ChatCompletionTool, ToolEntry>();
  /** The last entry made from each parameters object. */
  private readonly byParameters = new WeakMap<WireTool['parameters'], ToolEntry>();
  /** The forms `tools` made for each frozen list of tools (a list no one can change after). */
  private readonly byList = new WeakMap<readonly WireTool[], ChatCompletionTool[]>();
  /**
   * Each list of forms `tools` made for a frozen list, with the bytes `listedTools` gave for it once asked
   * (undefined until then); a list of forms not in it is read form by form.
   */
  private readonly listedByList = new WeakMap<readonly ChatCompletionTool[], Buffer[] | undefined>();
  /**
   * The messages of the last list sent for each conversation after the system message, kept by the first
   * of them, with their bytes in a few parts; for the conversations sent to most recently (a caller that
   * sends a sliding window starts a new one with each request).
   */
  private readonly sent = new RecentMap<
    ChatCompletionMessageParam,
    { readonly forms: readonly ChatCompletionMessageParam[]; readonly parts: readonly Buffer[] }
  >(KEPT_CONVERSATIONS);
  /**
   * The settled head of the last history sent for each conversation, kept by its first message: a long
   * conversation's next request maps only the messages after it, not every message again.
   */
  private readonly heads = new SettledHeads<MappedHead>();
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
    return this.forms.of(message, idOf, undefined);
  }

  /**
   * The head kept for the conversation `history` belongs to, mapped with notes after tool results or
   * without as `notes` says, when `history` still begins with its messages. Only call ids that travel as
   * they are may use it: shortened ones depend on the whole history.
   */
  headOf(history: readonly ChatMessage[], notes: boolean): MappedHead | undefined {
    return this.heads.find(history, (head) => head.notes === notes);
  }

  /** Keeps `head` for the conversation its first message begins. */
  keepHead(head: MappedHead): void {
    this.heads.keep(head);
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
   * `tool` of each of a request's tools, as one list. A frozen list given again (a turn's next request
   * carries the same one: see `requestTools`) gives the same forms without looking each tool up again;
   * any other list is read tool by tool, so a tool changed in place is sent as it is now.
   */
  tools(list: readonly WireTool[]): ChatCompletionTool[] {
    const kept = this.byList.get(list);
    if (kept !== undefined) return kept;
    const params = list.map((t) => this.tool(t));
    if (Object.isFrozen(list)) {
      this.byList.set(list, params);
      this.listedByList.set(params, undefined);
    }
    return params;
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
    return this.forms.bytes(param, listedBytes);
  }

  /**
   * Each message of `list` as `listedMessage` gives it, except the ones the last list of the same
   * conversation (the same first message after the system one) held, in the same order: those come as
   * the few parts that list's bytes were kept in. Only a list of forms this cache made is kept: those
   * are never changed once made, so the same forms in the same order are the same bytes. A long
   * conversation's request then joins a handful of parts and its new messages, not a part per message.
   */
  listedMessages(list: readonly ChatCompletionMessageParam[]): Buffer[] {
    const system =
      list[0] !== undefined && list[0] === this.system?.param ? [this.listedMessage(list[0])] : [];
    const start = system.length;
    const key = list[start];
    if (key === undefined) return system;
    const last = this.sent.get(key);
    const kept = last !== undefined && startsWith(list, start, last.forms);
    const parts = kept ? last.parts.slice() : [];
    let keep = true;
    for (let i = kept ? start + last.forms.length : start; i < list.length; i += 1) {
      const param = list[i] as ChatCompletionMessageParam;
      // Another message (a note put between two) may be changed before it comes again.
      keep &&= this.forms.made(param);
      parts.push(this.listedMessage(param));
    }
    if (!keep) {
      this.sent.delete(key);
      return system.concat(parts);
    }
    const joined = parts.length > MAX_KEPT_PARTS ? [Buffer.concat(parts)] : parts;
    this.sent.set(key, { forms: list.slice(start), parts: joined });
    return system.concat(joined);
  }

  /** `listedTool` of each form of `params`, as one list: the forms `tools` kept for a frozen list, given again, give the same bytes. */
  listedTools(params: readonly ChatCompletionTool[]): Buffer[] {
    const kept = this.listedByList.get(params);
    if (kept !== undefined) return kept;
    const bytes = params.map((p) => this.listedTool(p));
    if (this.listedByList.has(params)) this.listedByList.set(params, bytes);
    return bytes;
  }

  /**
   * `,` and the tool's JSON in UTF-8, kept for the forms this cache made; their parameters are written
   * from the schema's JSON text the runtime made for the tool's first request (`schemaJson`).
   */
  listedTool(param: ChatCompletionTool): Buffer {
    const entry = this.byParam.get(param);
    if (entry === undefined) return listedBytes(param);
    const { name, description } = entry.tool;
    // Written from its parts only as JSON.stringify would write it: a name and a description as text.
    entry.listed ??=
      typeof name === 'string' && typeof description === 'string'
        ? listedToolBytes(entry.tool)
        : listedBytes(param);
    return entry.listed;
  }
}
