import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ASK_END } from './turn-tools.js';

/** In place of a tool's name in `callPath`: call the tool the request's last ask names (see `targetOf`). */
export const ASKED = '~asked';

/**
 * The path prefix that tells the loopback which tool to call and with what arguments: a client whose
 * base URL is `${url}${callPath(...)}` gets, for the first request of each turn, a call to that tool
 * (when the request offers it), and a text answer once the call's result comes back.
 */
export function callPath(tool: string, args: Readonly<Record<string, unknown>>): string {
  return `/call/${tool}/${Buffer.from(JSON.stringify(args)).toString('base64url')}/v1`;
}

const PLEASE = Buffer.from('Please ');

/** The tool the request's last ask (`Please <the tool's words> for record r-…`) names, if it has one. */
function askedTool(body: Buffer): string | undefined {
  const end = body.lastIndexOf(ASK_END);
  const start = end < 0 ? -1 : body.lastIndexOf(PLEASE, end);
  return start < 0 ? undefined : body.toString('utf8', start + PLEASE.length, end).replaceAll(' ', '_');
}

const ROUTE = /^\/call\/([^/]+)\/([^/]+)\/v1\/chat\/completions$/;
const NAME_KEY = Buffer.from('"name":"');

/**
 * The name to call `tool` by: the wire name a request's tool definition gives it (a runtime may add a
 * prefix), found as a `"name":"…"` value ending in it; else the bare name when the request mentions it
 * anywhere (a catalogue listing it without its schema, which a model may call from); undefined when the
 * request never names it. Works on the raw bytes, so answering a request of 10,000 tools stays cheap.
 */
function nameToCall(body: Buffer, tool: string): string | undefined {
  const needle = Buffer.from(`${tool}"`);
  for (let at = body.indexOf(needle); at >= 0; at = body.indexOf(needle, at + 1)) {
    const open = body.lastIndexOf(0x22, at - 1);
    if (open >= NAME_KEY.length - 1 && body.subarray(open - NAME_KEY.length + 1, open + 1).equals(NAME_KEY))
      return body.toString('utf8', open + 1, at + tool.length);
  }
  return body.includes(tool) ? tool : undefined;
}

function completion(id: string, delta: Record<string, unknown>, finish: string | null, usage?: object) {
  const choices = [{ index: 0, delta, finish_reason: finish }];
  return { id, object: 'chat.completion.chunk', created: 0, model: 'bench', choices, ...usage };
}

/** Answers one Chat Completions request at once, streamed or whole, as the request asked. */
function reply(res: ServerResponse, body: Buffer, message: Record<string, unknown>, finish: string): void {
  const stream = body.includes('"stream":true');
  const usage = { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const choice = {
      index: 0,
      message: { role: 'assistant', content: null, ...message },
      finish_reason: finish,
    };
    res.end(
      JSON.stringify({
        id: 'bench',
        object: 'chat.completion',
        created: 0,
        model: 'bench',
        choices: [choice],
        ...usage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const events = [
    completion('bench', { role: 'assistant', ...message }, null),
    completion('bench', {}, finish),
  ];
  if (body.includes('"include_usage":true'))
    events.push({ ...completion('bench', {}, null), choices: [], ...usage });
  res.end(`${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`);
}

/** A running loopback Chat Completions server. */
export interface Loopback {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the loopback on 127.0.0.1: it answers every request as soon as it has read it. */
export async function startLoopback(): Promise<Loopback> {
  // Calls answered with a tool call whose result has not come back yet.
  const pending = new Set<string>();
  let calls = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const route = ROUTE.exec(req.url ?? '');
      if (req.method !== 'POST' || !route) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no endpoint ${req.method} ${req.url}` } }));
        return;
      }
      const body = Buffer.concat(chunks);
      const answered = [...pending].find((id) => body.includes(`"${id}"`));
      const tool = route[1] === ASKED ? askedTool(body) : route[1];
      const wire = answered === undefined && tool !== undefined ? nameToCall(body, tool) : undefined;
      if (answered !== undefined) pending.delete(answered);
      if (wire === undefined) return reply(res, body, { content: 'Done: the record is updated.' }, 'stop');
      calls += 1;
      const id = `call_bench_${calls}`;
      pending.add(id);
      const args = Buffer.from(route[2] as string, 'base64url').toString('utf8');
      const call = { index: 0, id, type: 'function', function: { name: wire, arguments: args } };
      reply(res, body, { tool_calls: [call] }, 'tool_calls');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The loopback in a process of its own (answering then costs the measured process no CPU and no time on
 * its event loop); closing it closes the process's input, which ends it.
 */
export async function startLoopbackProcess(): Promise<Loopback> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) =>
      reject(new Error(`The loopback process left (exit ${code}) before it listened.`)),
    );
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: (JSON.parse(first) as { url: string }).url,
    close: () => {
      child.stdin.end();
      return exited;
    },
  };
}

// Run as a program (the benchmark starts it in a process of its own, so answering costs the measured
// process no CPU): prints {"url": …} and serves until its standard input closes.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const loopback = await startLoopback();
  process.stdout.write(`${JSON.stringify({ url: loopback.url })}\n`);
  process.stdin.on('end', () => void loopback.close().then(() => process.exit(0)));
  process.stdin.resume();
}
