import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { errorText } from '../registry/failure-ledger.js';

/** Every rejection that carried a server's own JSON-RPC error answer, across all connections. */
const fromWire = new WeakSet<object>();

/**
 * True when `error` is an error a server sent in answer to toolseam's request. The SDK raises its own
 * failures (the connection closed, its timer ran out) as McpErrors too, with codes -32000 and -32001
 * that any server may also put in an answer: the code alone cannot tell them apart, the wire can.
 */
export function answeredByServer(error: unknown): error is McpError {
  return error instanceof McpError && fromWire.has(error);
}

/** True when `error` is the SDK's own failure of `code` (closed connection, request timeout), not a server's answer with that code. */
export function sdkFailure(error: unknown, code: ErrorCode): boolean {
  return error instanceof McpError && error.code === code && !fromWire.has(error);
}

/**
 * What the server said, without the `MCP error <code>: ` the SDK writes in front (twice when the
 * server was built on the SDK too: once there, once here).
 */
export function serverWords(error: unknown): string {
  return errorText(error).replace(/^(?:MCP error -?\d+: )+/, '');
}

/** A server's error answer in words: what it said, then its code (`… (JSON-RPC error -32001)`). */
export function answerWords(error: McpError): string {
  return `${serverWords(error)} (JSON-RPC error ${error.code})`;
}

/**
 * Watches one client's transport for the requests it sends and the error answers that come back, so
 * that the rejection of a request the server answered with an error is known as the server's answer.
 * Ids are compared as numbers, as the SDK matches an answer to its request.
 */
export class ErrorAnswers {
  /** Requests watched, by id: the error the server answered with, null until it has. */
  private readonly watched = new Map<number, { readonly code: number; readonly message: string } | null>();
  private issuing = false;
  private issued: number | undefined;
  private initializeId: number | undefined;

  /**
   * Starts watching `transport`; call it before the client connects, since the SDK calls a message
   * handler already set on a transport before its own (so the answer is seen before the rejection).
   */
  watch(transport: Transport): void {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if (isJSONRPCRequest(message)) {
        const id = Number(message.id);
        if (this.issuing) {
          this.issued = id;
          this.watched.set(id, null);
        } else if (message.method === 'initialize') {
          this.initializeId = id;
          this.watched.set(id, null);
        }
      }
      return send(message, options);
    };
    transport.onmessage = (message) => {
      if (!isJSONRPCErrorResponse(message) || message.id === undefined) return;
      const id = Number(message.id);
      if (this.watched.has(id))
        this.watched.set(id, { code: message.error.code, message: message.error.message });
    };
  }

  /**
   * Runs `issue`, which sends one request at once (as the SDK's `request` does, before it returns), and
   * marks its rejection as the server's answer when the server answered that request with an error.
   */
  async request<T>(issue: () => Promise<T>): Promise<T> {
    this.issuing = true;
    this.issued = undefined;
    let pending: Promise<T>;
    try {
      pending = issue();
    } finally {
      this.issuing = false;
    }
    const id = this.issued;
    try {
      return await pending;
    } catch (error) {
      if (id !== undefined) this.mark(error, id);
      throw error;
    } finally {
      if (id !== undefined) this.watched.delete(id);
    }
  }

  /** Runs the client's connect, marking its rejection as the server's answer when it answered `initialize` with an error. */
  async connect(connect: () => Promise<void>): Promise<void> {
    try {
      await connect();
    } catch (error) {
      if (this.initializeId !== undefined) this.mark(error, this.initializeId);
      throw error;
    } finally {
      if (this.initializeId !== undefined) this.watched.delete(this.initializeId);
    }
  }

  /** Marks `error` when it is the very answer the server sent to request `id` (its code and its words). */
  private mark(error: unknown, id: number): void {
    const answer = this.watched.get(id);
    if (!(error instanceof McpError) || !answer) return;
    if (error.code === answer.code && error.message === `MCP error ${answer.code}: ${answer.message}`) {
      fromWire.add(error);
    }
  }
}
