import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { benchToolSpecs, openaiTool, runBenchTool, type TurnSide } from './turn-tools.js';

const SYSTEM = 'You are a helpful assistant. Use the tools to look up and change records.';

interface Answer {
  readonly text: string;
  readonly calls: { id: string; name: string; args: string }[];
}

/**
 * The baseline: the `openai` SDK as a person uses it without a runtime, sending all `n` tools with each
 * streamed request, running the called tool, and keeping each long conversation's history in memory.
 */
export function bareSide(baseURL: string, n: number): TurnSide {
  const client = new OpenAI({ apiKey: 'bench', baseURL, maxRetries: 0 });
  const tools = benchToolSpecs(n).map(openaiTool);
  const long = new Map<string, ChatCompletionMessageParam[]>();

  async function ask(messages: ChatCompletionMessageParam[]): Promise<Answer> {
    const stream = await client.chat.completions.create({ model: 'bench', messages, tools, stream: true });
    let text = '';
    const calls: Answer['calls'] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      text += delta?.content ?? '';
      for (const part of delta?.tool_calls ?? []) {
        calls[part.index] ??= { id: '', name: '', args: '' };
        const call = calls[part.index] as Answer['calls'][number];
        if (part.id) call.id = part.id;
        call.name += part.function?.name ?? '';
        call.args += part.function?.arguments ?? '';
      }
    }
    return { text, calls };
  }

  return {
    async turn(text, conversation) {
      let messages = conversation === undefined ? undefined : long.get(conversation);
      if (messages === undefined) {
        messages = [{ role: 'system', content: SYSTEM }];
        if (conversation !== undefined) long.set(conversation, messages);
      }
      messages.push({ role: 'user', content: text });
      let ran = false;
      for (;;) {
        const answer = await ask(messages);
        if (answer.calls.length === 0) {
          messages.push({ role: 'assistant', content: answer.text });
          return ran;
        }
        const toolCalls = answer.calls.map((c) => ({
          id: c.id,
          type: 'function' as const,
          function: { name: c.name, arguments: c.args },
        }));
        messages.push({ role: 'assistant', content: answer.text || null, tool_calls: toolCalls });
        for (const call of answer.calls) {
          const content = runBenchTool(call.name, JSON.parse(call.args) as { id?: unknown });
          messages.push({ role: 'tool', tool_call_id: call.id, content });
          ran = true;
        }
      }
    },
    async close() {},
  };
}
