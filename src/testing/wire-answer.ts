import type { ServerResponse } from 'node:http';
import type { WireTool } from '../core/model.js';
import type { Answer } from './answer.js';
import type { NeutralRequest, RecordedRequest, StandInFamily } from './recorded-request.js';
import type { ScriptError } from './script.js';

/** An HTTP answer: status, headers and the body byte for byte. */
export interface WireAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A request the stand-in refuses, the way the real provider would. */
export interface Rejection {
  readonly answer: WireAnswer;
  /** Why, in a few words, for the recorded request. */
  readonly reason: string;
}

/** Which endpoint a request reached. */
export interface Route {
  readonly kind: 'chat' | 'models';
  /** Streaming decided by the path (Bedrock's converse-stream) rather than the body. */
  readonly stream?: boolean;
  /** The model id in the path (Bedrock). */
  readonly model?: string;
}

/** A reply answer. */
export type ReplyAnswer = Extract<Answer, { kind: 'reply' }>;
/** A failing-stream answer. */
export type StreamErrorAnswer = Extract<Answer, { kind: 'stream-error' }>;

/** How one wire family reads requests and writes answers. */
export interface FamilyWire {
  readonly family: StandInFamily;
  /** The path an SDK's base URL points at ('' for the server root). */
  readonly basePath: string;
  route(method: string, path: string): Route | undefined;
  /** The request, provider-neutral (tolerant: validation is `validate`'s job). */
  parse(body: unknown, route: Route): NeutralRequest;
  /** The provider's own refusal of a malformed request or tool definition, if any. */
  validate(body: unknown, route: Route): Rejection | undefined;
  /** The provider's refusal of the tool at `index`, as if its definition were bad. */
  rejectTool(index: number, tool: WireTool): Rejection;
  /** A scripted error in the family's body shape. */
  error(error: ScriptError): WireAnswer;
  /** The answer to a body that is not JSON. */
  unreadable(detail: string): WireAnswer;
  /** Why the family's JSON reader refuses a body that JSON.parse reads (e.g. half of a character), if it does. */
  unreadableText?(rawBody: string): string | undefined;
  /** A list of models (for clients that ask first), when the family has such an endpoint. */
  models?(model: string): WireAnswer;
  reply(answer: ReplyAnswer, request: RecordedRequest, res: ServerResponse): void;
  streamError(answer: StreamErrorAnswer, request: RecordedRequest, res: ServerResponse): void;
}

/** Writes a whole answer. */
export function send(res: ServerResponse, answer: WireAnswer): void {
  res.writeHead(answer.status, { 'content-length': Buffer.byteLength(answer.body), ...answer.headers });
  res.end(answer.body);
}

/**
 * Stops a started stream before its closing event: `end` finishes the HTTP answer cleanly, `reset`
 * closes the connection with the answer unfinished (what a dropped connection looks like to a client),
 * `hold` leaves it open with nothing more to come (a model stalled mid-answer).
 */
export function cutStream(res: ServerResponse, how: 'end' | 'reset' | 'hold'): void {
  // held: the answer stays open until the client stops reading (closing the stand-in ends it too)
  if (how === 'hold') return;
  // ending the socket itself sends what was written but never the end of the chunked body
  if (how === 'reset') res.socket?.end();
  else res.end();
}

/** Pretty JSON with two-space indent, as Google's and OpenAI's servers print errors. */
export function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
