// An MCP server whose answers nest 10,000 levels deep, speaking raw JSON-RPC over stdio: JSON.stringify
// cannot write such a value, so its answers are written as text.
import { createInterface } from 'node:readline';

const DEPTH = 10_000;
const deepList = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const send = (text) => process.stdout.write(`${text}\n`);
const reply = (id, resultText) => send(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultText}}`);

const tools = [
  {
    name: 'deep_structured',
    description: 'Answers with deep structured content only.',
    inputSchema: { type: 'object', properties: {} },
  },
  {
    name: 'deep_text',
    description: 'Answers with deep JSON as its text.',
    inputSchema: { type: 'object', properties: {} },
  },
  {
    name: 'store_doc',
    description: 'Stores a free-form document.',
    inputSchema: { type: 'object', properties: { doc: { type: 'object' } }, required: ['doc'] },
  },
];

function handle(message) {
  const { id, method, params } = message;
  if (id === undefined) return;
  if (method === 'initialize') {
    const result = {
      protocolVersion: params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'deep', version: '0.0.1' },
    };
    return reply(id, JSON.stringify(result));
  }
  if (method === 'ping') return reply(id, '{}');
  if (method === 'tools/list') return reply(id, JSON.stringify({ tools }));
  if (method === 'tools/call') {
    if (params.name === 'deep_structured')
      return reply(id, `{"content":[],"structuredContent":{"tree":${deepList}}}`);
    if (params.name === 'deep_text')
      return reply(id, JSON.stringify({ content: [{ type: 'text', text: deepList }] }));
    if (params.name === 'store_doc')
      return reply(id, JSON.stringify({ content: [{ type: 'text', text: 'stored' }] }));
  }
  send(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: `unknown: ${method}` } }));
}

const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  if (line.trim() !== '') handle(JSON.parse(line));
});
input.on('close', () => process.exit(0));
