import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InputError } from '../core/errors.js';
import type { Answer } from './answer.js';
import { anthropicWire } from './anthropic-wire.js';
import { bedrockWire } from './bedrock-wire.js';
import { type EmbeddingRequest, embeddingAnswer } from './embedding-answer.js';
import { openaiWire } from './openai-wire.js';
import { conversationTail, type RecordedRequest, type StandInFamily } from './recorded-request.js';
import type { ScriptTurn } from './script.js';
import { isFailureTurn, ScriptedModel } from './scripted-model.js';
import { type FamilyWire, type Rejection, send } from './wire-answer.js';

/** How to start a stand-in. */
export interface StandInOptions {
  readonly family: StandInFamily;
  /** `gemini` (OpenAI family only): Gemini's schema and name rules, error shapes and stream quirks. */
  readonly mode?: 'gemini';
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** Port (default 0: any free port). */
  readonly port?: number;
  /** Turns to start with. */
  readonly script?: readonly ScriptTurn[];
  /** With no turn left: refuse the request (default) or echo the last user message. */
  readonly whenScriptEmpty?: 'error' | 'echo';
  /** What a refused request past the last turn is told to do (default: "push more turns"). */
  readonly scriptSpentHint?: string;
  /** Tool (wire) names to reject as bad definitions whenever a request offers them. */
  readonly rejectTools?: readonly string[];
}

/** Settings that point `createModelAdapter` at a stand-in (spread them into a model config). */
export interface StandInModelConfig {
  readonly provider: 'openai-compatible' | 'gemini' | 'anthropic' | 'bedrock';
  readonly model: string;
  readonly baseURL: string;
  readonly apiKey?: string;
  readonly region?: string;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** A running stand-in: a loopback model provider the real SDKs talk to. */
export interface StandIn {
  readonly family: StandInFamily;
  readonly mode: 'gemini' | undefined;
  /** `http://host:port`. */
  readonly url: string;
  /** What to give the SDK as its base URL (`/v1` for OpenAI, `/v1beta/openai` in gemini mode). */
  readonly baseURL: string;
  readonly port: number;
  /** Every request so far, in order, with how it was answered. */
  readonly requests: readonly RecordedRequest[];
  /** Every embedding request so far (answered with `standInVector`s, never from the script). */
  readonly embeddingRequests: readonly EmbeddingRequest[];
  /** Turns not yet used. */
  readonly pending: number;
  /** Queues more turns. */
  push(...turns: ScriptTurn[]): StandIn;
  /** Rejects every request that offers this tool, as the provider rejects a bad definition. */
  rejectTool(name: string): StandIn;
  /** The model config for this stand-in. */
  modelConfig(model?: string): StandInModelConfig;
  /** Forgets queued turns, recorded requests and tools to reject. */
  reset(): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function headersOf(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
  );
}

const CALL_ID_PREFIX: Readonly<Record<StandInFamily, string>> = {
  openai: 'call_',
  anthropic: 'toolu_',
  bedrock: 'tooluse_',
};

/** Starts a stand-in for `options.family` on loopback. */
export async function startStandIn(options: StandInOptions): Promise<StandIn> {
  if (options.mode === 'gemini' && options.family !== 'openai') {
    throw new InputError(
      "The gemini mode is a mode of the openai family (Gemini's OpenAI-compatible endpoint); use --family openai.",
    );
  }
  const wire: FamilyWire =
    options.family === 'anthropic'
      ? anthropicWire()
      : options.family === 'bedrock'
        ? bedrockWire()
        : openaiWire(options.mode ?? 'openai');
  const model = new ScriptedModel(options.script ?? []);
  const requests: RecordedRequest[] = [];
  const embeddingRequests: EmbeddingRequest[] = [];
  const rejected = new Set(options.rejectTools ?? []);
  const timers = new Set<NodeJS.Timeout>();
  const prefix = CALL_ID_PREFIX[options.family];

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  function forced(record: RecordedRequest): Rejection | undefined {
    const index = record.tools.findIndex((t) => rejected.has(t.name));
    const tool = record.tools[index];
    return tool ? wire.rejectTool(index, tool) : undefined;
  }

  async function answer(result: Answer, record: RecordedRequest, res: ServerResponse, req: IncomingMessage) {
    if (result.delayMs > 0) await wait(result.delayMs);
    if (result.kind === 'drop') {
      record.outcome = { kind: 'dropped' };
      req.socket.destroy();
    } else if (result.kind === 'reply') {
      wire.reply(result, record, res);
    } else if (result.kind === 'error') {
      record.outcome = { kind: 'error', status: result.error.status };
      send(res, wire.error(result.error));
    } else if (result.kind === 'raw') {
      record.outcome = { kind: 'error', status: result.raw.status };
      send(res, { status: result.raw.status, headers: result.raw.headers ?? {}, body: result.raw.body });
    } else if (record.stream) {
      wire.streamError(result, record, res);
    } else {
      record.outcome = { kind: 'error', status: 500 };
      send(res, wire.error({ status: 500, ...(result.message ? { message: result.message } : {}) }));
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const rawBody = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    const embedding = embeddingAnswer(req.method ?? 'GET', path, rawBody);
    if (embedding) {
      embeddingRequests.push(embedding.request);
      return send(res, embedding.answer);
    }
    const route = wire.route(req.method ?? 'GET', path);
    if (!route) {
      const body = JSON.stringify({
        error: { message: `The ${options.family} stand-in has no endpoint ${req.method} ${path}.` },
      });
      return send(res, { status: 404, headers: { 'content-type': 'application/json' }, body });
    }
    if (route.kind === 'models')
      return send(res, wire.models?.('stand-in-model') ?? { status: 404, headers: {}, body: '' });
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch (error) {
      return send(res, wire.unreadable((error as Error).message));
    }
    const strict = wire.unreadableText?.(rawBody);
    if (strict !== undefined) return send(res, wire.unreadable(strict));
    const neutral = wire.parse(body, route);
    const record: RecordedRequest = {
      ...neutral,
      ...conversationTail(neutral.messages),
      family: options.family,
      method: req.method ?? 'POST',
      path,
      headers: headersOf(req),
      rawBody,
      body,
      outcome: { kind: 'no-turn' },
    };
    requests.push(record);
    const callId = (n: number) => `${prefix}${n}`;
    const turn = model.peek(record);
    // a scripted failure is the provider failing, whatever the request; anything else is validated first
    const rejection =
      turn && isFailureTurn(turn) ? undefined : (wire.validate(body, route) ?? forced(record));
    if (rejection) {
      record.outcome = { kind: 'rejected', status: rejection.answer.status, reason: rejection.reason };
      return send(res, rejection.answer);
    }
    if (turn) {
      const next = model.take(turn, record, callId);
      record.outcome = { kind: 'answered', turn: next.turn };
      return answer(next.answer, record, res, req);
    }
    if (options.whenScriptEmpty === 'echo') {
      const echo = new ScriptedModel([{ echo: 'lastUserMessage' }]).next(record, callId);
      if (echo) {
        record.outcome = { kind: 'answered', turn: 0 };
        return answer(echo.answer, record, res, req);
      }
    }
    const message = `The stand-in's script has no turn left for this request (${requests.length} requests so far); ${options.scriptSpentHint ?? 'push more turns'}.`;
    return send(res, wire.error({ status: 400, message }));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        send(res, { status: 500, headers: { 'content-type': 'text/plain' }, body: String(error) });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  const standIn: StandIn = {
    family: options.family,
    mode: options.mode,
    url,
    baseURL: `${url}${wire.basePath}`,
    port: address.port,
    requests,
    embeddingRequests,
    get pending() {
      return model.pending;
    },
    push(...turns) {
      model.push(...turns);
      return standIn;
    },
    rejectTool(name) {
      rejected.add(name);
      return standIn;
    },
    modelConfig(modelId = 'stand-in-model') {
      if (options.family === 'bedrock') {
        const credentials = { accessKeyId: 'stand-in', secretAccessKey: 'stand-in' };
        return { provider: 'bedrock', model: modelId, baseURL: url, region: 'us-east-1', credentials };
      }
      const provider =
        options.family === 'anthropic'
          ? 'anthropic'
          : options.mode === 'gemini'
            ? 'gemini'
            : 'openai-compatible';
      return { provider, model: modelId, baseURL: standIn.baseURL, apiKey: 'stand-in' };
    },
    reset() {
      model.clear();
      requests.length = 0;
      rejected.clear();
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return standIn;
}
