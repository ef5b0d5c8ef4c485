// The baseline for `toolseam chat -m`: a script that talks to the same Chat Completions endpoint with the
// bare `openai` SDK, offers one tool, runs the call the model makes and prints the answer.
// Usage: node bench/bare-chat.mjs BASE_URL [MESSAGE]
import { readdir } from 'node:fs/promises';
import OpenAI from 'openai';

const client = new OpenAI({ apiKey: 'bench', baseURL: process.argv[2], maxRetries: 0 });
const tools = [
  {
    type: 'function',
    function: {
      name: 'list_dir',
      description: 'Lists the entries of a folder in name order.',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  },
];
const messages = [{ role: 'user', content: process.argv[3] ?? 'hi' }];
for (;;) {
  const stream = await client.chat.completions.create({ model: 'bench', messages, tools, stream: true });
  let text = '';
  const calls = [];
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    text += delta?.content ?? '';
    for (const part of delta?.tool_calls ?? []) {
      calls[part.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } };
      const call = calls[part.index];
      if (part.id) call.id = part.id;
      call.function.name += part.function?.name ?? '';
      call.function.arguments += part.function?.arguments ?? '';
    }
  }
  if (calls.length === 0) {
    process.stdout.write(`${text}\n`);
    break;
  }
  messages.push({ role: 'assistant', content: text || null, tool_calls: calls });
  for (const call of calls) {
    const { path } = JSON.parse(call.function.arguments);
    const entries = (await readdir(path)).sort();
    messages.push({
      role: 'tool',
      tool_call_id: call.id,
      content: entries.join('\n') || `${path} is empty.`,
    });
  }
}
