import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { toolseamNodeArgs } from '../cli/spawn-toolseam.js';
import { serveFolder } from './serve-process.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const clean of cleanups.splice(0)) clean();
});

/** `toolseam mcp-serve` spoken to in plain JSON-RPC lines on its stdin and stdout: no SDK on this side. */
function rawServer() {
  const folder = serveFolder();
  cleanups.push(folder.remove);
  const child = spawn(process.execPath, toolseamNodeArgs(['mcp-serve']), {
    cwd: folder.dir,
    env: { ...process.env, ...folder.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  cleanups.push(() => child.kill('SIGKILL'));
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const wake of waiters.splice(0)) wake();
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const send = (message: object): void => {
    child.stdin.write(`${JSON.stringify(message)}\n`);
  };
  /** The answer to request `id`, as the parsed line the server wrote. */
  const answer = async (id: number): Promise<Record<string, unknown>> => {
    for (;;) {
      for (const line of lines) {
        const message = JSON.parse(line) as Record<string, unknown>;
        if (message.id === id) return message;
      }
      await new Promise<void>((wake) => waiters.push(wake));
    }
  };
  return { child, send, answer, lines, exited, stderr: () => stderr };
}

describe('toolseam mcp-serve to a client that speaks raw JSON-RPC over stdio', () => {
  it('initializes, lists, calls and refuses, writing nothing but JSON-RPC on stdout, and exits when stdin ends', async () => {
    const server = rawServer();
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '0.1' },
      },
    });
    const init = await server.answer(1);
    expect(init).toMatchObject({
      jsonrpc: '2.0',
      result: { serverInfo: { name: 'toolseam' }, capabilities: { tools: {} } },
    });
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const listed = (await server.answer(2)).result as { tools: { name: string; inputSchema: object }[] };
    const greet = listed.tools.find((t) => t.name === 'greet');
    expect(greet?.inputSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' } } });

    server.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'greet', arguments: { name: 'Bo' } },
    });
    expect((await server.answer(3)).result).toEqual({
      content: [{ type: 'text', text: 'Hello, Bo!' }],
      isError: false,
    });

    // a key the tool does not declare is refused in the tool's own words, as a result, not a protocol error
    server.send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'greet', arguments: { name: 'Bo', nmae: 'Bo' } },
    });
    const refused = (await server.answer(4)).result as { content: { text: string }[]; isError: boolean };
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toContain('nmae');

    // a call with no tool by that name
    server.send({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'bash', arguments: { command: 'ls' } },
    });
    const unknown = (await server.answer(5)).result as { content: { text: string }[]; isError: boolean };
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown.content[0]?.text).toContain('there is no tool named bash');

    for (const line of server.lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    server.child.stdin.end();
    expect(await server.exited).toBe(0);
  });
});
