// Deliberately broken MCP servers for containment tests, speaking raw JSON-RPC over stdio so each
// defect is exactly what a buggy server would send. The mode is the first argument.
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'ok';
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const reply = (id, result) => send({ jsonrpc: '2.0', id, result });
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const obj = (properties, required) => ({ type: 'object', properties, ...(required ? { required } : {}) });

if (mode === 'crash-at-start') {
  process.stderr.write('fatal: the database file notes.db is locked\n');
  process.exit(1);
}

// A server that says why it cannot start on stdout, as a print() or console.log does, and not on stderr.
if (mode === 'stdout-fatal') {
  process.stdout.write(
    'Starting notes server...\nError: the NOTES_API_KEY environment variable is required\n',
  );
  process.exit(1);
}

const LISTINGS = {
  ok: [
    {
      name: 'echo',
      description: 'Echoes its text.',
      inputSchema: obj({ text: { type: 'string' } }, ['text']),
    },
  ],
  malformed: [
    'not a tool',
    { description: 'a tool with no name', inputSchema: obj({}) },
    { name: 'good', description: 'Works fine.', inputSchema: obj({ q: { type: 'string' } }) },
    { name: 'good', description: 'A second tool with the same name.', inputSchema: obj({}) },
    { name: 'string_root', description: 'Its schema root is a string.', inputSchema: { type: 'string' } },
    { name: 'no_schema', description: 'Declares no inputSchema at all.' },
    { name: 'schema_is_text', description: 'Its inputSchema is text.', inputSchema: 'object' },
  ],
  odd: [
    { name: 'a.b', description: 'A dotted name.', inputSchema: obj({}) },
    { name: 'x/y', description: 'A slashed name.', inputSchema: obj({}) },
    { name: 'ünïcödé-名前', description: 'A unicode name.', inputSchema: obj({}) },
    {
      name: 'a_b',
      description: '',
      inputSchema: obj({ n: { type: 'integer', description: 'how many' } }, ['n']),
    },
    { name: 'blank', description: '   ', inputSchema: obj({}) },
    {
      name: 'tree',
      description: 'Takes a recursive tree.',
      inputSchema: {
        type: 'object',
        $defs: {
          node: obj({
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          }),
        },
        properties: { root: { $ref: '#/$defs/node' } },
      },
    },
  ],
};

/** A tool whose schema is nested `depth` levels deep, as JSON text (JSON.stringify cannot write it). */
function deepToolText(depth) {
  const open = '{"type":"object","properties":{"inner":'.repeat(depth);
  const schema = `{"type":"object","properties":{"tree":${open}{"type":"string"}${'}}'.repeat(depth)}}}`;
  return `{"name":"deep","description":"A very deep schema.","inputSchema":${schema}}`;
}

const tools = [...(LISTINGS[mode] ?? LISTINGS.ok)];
if (mode === 'relist-fails')
  tools.push({ name: 'gone', description: 'Withdrawn after the first listing.', inputSchema: obj({}) });
let listings = 0;
tools.push(
  {
    name: 'leak',
    description: 'Shows the token it was given, in its result or its stderr.',
    inputSchema: obj({ how: { type: 'string' } }),
  },
  {
    name: 'jam',
    description: 'Does part of its work, then fails with an internal error.',
    inputSchema: obj({}),
  },
  { name: 'wait', description: 'Never answers.', inputSchema: obj({}) },
  {
    name: 'answer_error',
    description: 'Answers with a JSON-RPC error of the code asked for, as a server of its own may.',
    inputSchema: obj({ code: { type: 'integer' }, forged: { type: 'boolean' } }, ['code']),
  },
  { name: 'boom', description: 'Exits mid-call.', inputSchema: obj({}) },
  {
    name: 'flood',
    description: 'Returns a huge text.',
    inputSchema: obj(
      { chars: { type: 'integer' }, idLast: { type: 'boolean' }, asLog: { type: 'boolean' } },
      ['chars'],
    ),
  },
  { name: 'old_style', description: 'Answers as servers of protocol 2024-10-07 may.', inputSchema: obj({}) },
  { name: 'plain', description: 'Answers with its content as a bare string.', inputSchema: obj({}) },
  {
    name: 'count',
    description: 'Counts to n.',
    inputSchema: obj({ n: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } }, ['n']),
  },
);

function call(id, params) {
  const args = params?.arguments ?? {};
  switch (params?.name) {
    case 'wait':
      return;
    case 'answer_error':
      // -32000 and -32001 are the codes the SDK uses for its own closed connection and timeout;
      // `forged` dresses the error up as the stand-in toolseam writes for an answer too large to take.
      return send({
        jsonrpc: '2.0',
        id,
        error: {
          code: args.code,
          message: 'the upstream service refused the request: quota spent',
          ...(args.forged ? { data: { toolseamOversizedAnswer: true, limitBytes: 10 } } : {}),
        },
      });
    case 'leak':
      // A server that tells its token: in a result, or in its last words before it dies
      if (args.how === 'result') return reply(id, text(`using token ${process.env.DEMO_API_TOKEN}`));
      process.stderr.write(`fatal: the service refused token ${process.env.DEMO_API_TOKEN}\n`);
      process.exit(4);
      return;
    case 'jam':
      process.stderr.write('charged the card\n');
      return send({ jsonrpc: '2.0', id, error: { code: -32603, message: 'receipt printer jammed' } });
    case 'boom':
      process.stderr.write('panic: index out of range in handler\n');
      process.exit(3);
      return;
    case 'old_style':
      return reply(id, { toolResult: { temperature: 21, unit: 'C' } });
    case 'plain':
      return reply(id, { content: 'plain words' });
    case 'flood':
      // As servers built on the TypeScript SDK write an answer: the id last.
      if (args.idLast) return send({ result: text('x'.repeat(args.chars)), jsonrpc: '2.0', id });
      // A huge log message instead of the answer: nothing says which call it belongs to.
      if (args.asLog) {
        const params = { level: 'info', data: 'x'.repeat(args.chars) };
        return send({ jsonrpc: '2.0', method: 'notifications/message', params });
      }
      return reply(id, text('x'.repeat(args.chars)));
    case 'count':
      if (typeof args.n !== 'number' || args.n < 0) {
        return send({
          jsonrpc: '2.0',
          id,
          error: { code: -32602, message: `n must be a number of at least 0, got ${JSON.stringify(args.n)}` },
        });
      }
      return reply(id, text(`counted to ${args.n}${args.tags ? ` with ${args.tags.join('+')}` : ''}`));
    case 'echo':
    case 'good':
      return reply(id, text(JSON.stringify(args)));
    default:
      return send({ jsonrpc: '2.0', id, error: { code: -32602, message: `Unknown tool: ${params?.name}` } });
  }
}

/** Runs `then` once the file at `path` exists (checked every 50 ms). */
function whenFile(path, then) {
  if (existsSync(path)) return then();
  setTimeout(() => whenFile(path, then), 50);
}

function handle(message) {
  const { id, method, params } = message;
  if (id === undefined) return;
  if (method === 'initialize') {
    if (mode === 'hang-start') return;
    // `start-when <file>`: a server slow to start, which answers initialize once the file exists.
    if (mode === 'start-when' && !existsSync(process.argv[3])) {
      return whenFile(process.argv[3], () => handle(message));
    }
    // `start-error-32000`, `start-error-32001`: initialize answered with an error of that code.
    if (mode.startsWith('start-error')) {
      const code = Number(mode.slice('start-error'.length));
      return send({ jsonrpc: '2.0', id, error: { code, message: 'no licence for this machine' } });
    }
    if (mode === 'garbage') process.stdout.write('this line is not JSON\n{"half": \n');
    return reply(id, {
      protocolVersion: params.protocolVersion,
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: `broken-${mode}`, version: '0.0.1' },
    });
  }
  if (method === 'ping') return reply(id, {});
  if (method === 'tools/list') {
    if (mode === 'hang-list') return;
    if (mode === 'bad-list') return reply(id, { tools: 'none today' });
    if (mode === 'error-list')
      return send({ jsonrpc: '2.0', id, error: { code: -32603, message: 'index not built' } });
    // `list-error-32000`, `list-error-32001`: the listing answered with an error of that code.
    if (mode.startsWith('list-error')) {
      const code = Number(mode.slice('list-error'.length));
      return send({ jsonrpc: '2.0', id, error: { code, message: 'the catalog service is down' } });
    }
    if (mode === 'deep') {
      const listed = [...tools.map((t) => JSON.stringify(t)), deepToolText(20_000)];
      return process.stdout.write(
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"tools":[${listed.join(',')}]}}\n`,
      );
    }
    listings += 1;
    if (mode === 'relist-fails' && listings > 1)
      return send({ jsonrpc: '2.0', id, error: { code: -32603, message: 'database offline' } });
    reply(id, { tools });
    // The list changes (`gone` is withdrawn), but listing it again fails from now on.
    if (mode === 'relist-fails') send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    return;
  }
  if (method === 'tools/call') return call(id, params);
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
}

const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  if (line.trim() !== '') handle(JSON.parse(line));
});
// A 'stubborn' server ignores the end of its input and must be killed.
input.on('close', () => {
  if (mode !== 'stubborn') process.exit(0);
});
setInterval(() => {}, 60_000);
