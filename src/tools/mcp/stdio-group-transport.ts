import { type ChildProcess, spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { forgetGroup, watchGroup } from '../process-groups.js';
import { oversizedAnswer } from './oversized-answer.js';
import { edgeId, StdoutLines } from './stdout-lines.js';

/** How to start a stdio MCP server. */
export interface StdioGroupOptions {
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the few variables every server inherits (PATH, HOME, …), as the SDK's transport does. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /**
   * Largest single message the server may send: a bigger answer to a request is dropped and the request
   * answered with an error instead; a bigger message that names no request it answers ends the connection.
   */
  readonly maxMessageBytes: number;
}

/** A line the server wrote on stdout that is not a JSON-RPC message: noise, which the connection goes on after. */
export class UnreadableLineError extends Error {
  constructor(
    cause: unknown,
    /** The line itself (its first 300 characters), as a server that prints its errors wrote it. */
    readonly line: string,
  ) {
    super(`the server wrote a line that is not a JSON-RPC message (${(cause as Error)?.message ?? cause})`, {
      cause,
    });
    this.name = 'UnreadableLineError';
  }
}

/** How long a server gets to leave after its input closes, and again after SIGTERM. */
const GRACE_MS = 2_000;

const POSIX = process.platform !== 'win32';

/**
 * The stdio transport the SDK has, but with the server started as the leader of its own process
 * group, and that whole group stopped on close: a server started through a wrapper (`npx`, `sh -c`,
 * `uv run`, `docker run`) leaves no process behind. The group is also stopped when its leader exits
 * on its own (a crash), and when toolseam itself exits.
 */
export class StdioGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr, readable from before it starts. */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private readonly buffer: StdoutLines;
  /** Ids of the requests sent and not yet answered. */
  private readonly asked = new Set<string | number>();
  /** The stop of what a server that left on its own leaves behind, while it runs. */
  private leftovers: Promise<void> | undefined;

  constructor(private readonly options: StdioGroupOptions) {
    this.buffer = new StdoutLines(options.maxMessageBytes);
  }

  /** The server's process id once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('this stdio transport was already started');
    const { command, args, env, cwd } = this.options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        env: { ...getDefaultEnvironment(), ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        detached: POSIX,
        windowsHide: true,
        ...(cwd === undefined ? {} : { cwd }),
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => {
        if (POSIX && child.pid !== undefined) watchGroup(child.pid);
        resolve();
      });
      // The server is its group's leader: once it is gone, whatever it started is stopped too, so
      // nothing outlives it, and a process that kept its output open cannot hide that it is gone.
      child.on('exit', () => {
        if (this.child !== child || child.pid === undefined || !POSIX) return;
        this.leftovers = stopGroup(child.pid, child);
      });
      child.on('close', () => {
        if (this.child === child) this.child = undefined;
        // A group with no one left is forgotten, so its id is never signalled once reused.
        if (child.pid !== undefined && !signalGroup(child.pid, child, 0)) forgetGroup(child.pid);
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr?.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin) {
        reject(new Error('the server is not connected'));
        return;
      }
      if ('method' in message && 'id' in message) this.asked.add(message.id);
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Closes the server's input, then stops its group: SIGTERM after the grace, SIGKILL after another. */
  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.buffer.clear();
    this.asked.clear();
    if (child === undefined) {
      await this.leftovers;
      return;
    }
    const group = child.pid;
    const exited = new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) done();
      else child.once('close', () => done());
    });
    try {
      child.stdin?.end();
    } catch {
      // Its input may already be gone with it.
    }
    await within(exited, GRACE_MS);
    // The leader may have left on its own while what it started stays: the group is stopped anyway.
    if (group !== undefined) await stopGroup(group, child);
  }

  private read(chunk: Buffer): void {
    this.buffer.append(chunk);
    for (let item = this.buffer.next(); item !== undefined; item = this.buffer.next()) {
      if (item.kind === 'oversized') {
        if (!this.dropped(item)) return;
        continue;
      }
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(item.text);
      } catch (error) {
        this.onerror?.(new UnreadableLineError(error, item.text.slice(0, 300)));
        continue;
      }
      if (!('method' in message) && 'id' in message && message.id !== undefined)
        this.asked.delete(message.id);
      this.onmessage?.(message);
    }
  }

  /**
   * A message too large to take: when it answers a request still waiting, that request is answered with
   * an error instead and the connection goes on (true); else the connection ends, so that no call waits
   * for an answer that was dropped (false).
   */
  private dropped(item: { readonly bytes: number; readonly head: string; readonly tail: string }): boolean {
    const limitBytes = this.options.maxMessageBytes;
    const id = edgeId(item);
    if (id === undefined || !this.asked.has(id)) {
      // Worded as the SDK's ReadBuffer words it: the connection recognises the words.
      this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${limitBytes} bytes`));
      void this.close();
      return false;
    }
    this.asked.delete(id);
    this.onmessage?.(oversizedAnswer(id, { limitBytes, bytes: item.bytes }));
    return true;
  }
}

/** Sends `signal` to the server's whole group (its process alone off POSIX); false when none is left. */
function signalGroup(group: number, child: ChildProcess, signal: NodeJS.Signals | 0): boolean {
  try {
    if (POSIX) process.kill(-group, signal);
    else if (child.exitCode === null) {
      if (signal !== 0) child.kill(signal);
    } else return false;
    return true;
  } catch {
    return false;
  }
}

/** Stops what is left of a group: SIGTERM, then SIGKILL to whatever is still there after the grace. */
async function stopGroup(group: number, child: ChildProcess): Promise<void> {
  if (signalGroup(group, child, 'SIGTERM')) {
    await untilGroupGone(group, child, GRACE_MS);
    signalGroup(group, child, 'SIGKILL');
  }
  forgetGroup(group);
}

async function untilGroupGone(group: number, child: ChildProcess, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end && signalGroup(group, child, 0)) await delay(50);
}

/** Waits for `work`, at most `ms` (the timer holds the process open: a close is being awaited). */
async function within(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((done) => (timer = setTimeout(done, ms)))]);
  clearTimeout(timer);
}

function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
