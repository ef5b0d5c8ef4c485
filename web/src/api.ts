import type {
  Approval,
  ApprovalAnswer,
  ErrorBody,
  Session,
  SessionDetail,
  ToolRow,
  ToolsPageData,
} from './api-types.js';

/** A request the API answered with an error: its status, its stable code and the sentence it sent. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Called when the API answers 401, so the page can show the sign-in form. */
let onUnauthorized: () => void = () => {};

/** Sets what happens when the API asks for a token. */
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.headers = { accept: 'application/json', 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (response.status === 401 && path !== '/api/sign-in') onUnauthorized();
  if (!response.ok) throw await errorOf(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

async function errorOf(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as Partial<ErrorBody>;
    if (body.error && typeof body.error.message === 'string') {
      return new ApiError(response.status, String(body.error.code), body.error.message);
    }
  } catch {
    // Not JSON: the status says what there is to say.
  }
  return new ApiError(
    response.status,
    'http_error',
    `The server answered ${response.status} ${response.statusText}.`,
  );
}

const enc = encodeURIComponent;

/** The HTTP API of `toolseam serve` (docs/http-api.md), as the page calls it. */
export const api = {
  signIn: (token: string) => call<void>('POST', '/api/sign-in', { token }),
  sessions: () => call<{ sessions: Session[] }>('GET', '/api/sessions').then((r) => r.sessions),
  createSession: (title?: string) => call<Session>('POST', '/api/sessions', title ? { title } : {}),
  session: (id: string) => call<SessionDetail>('GET', `/api/sessions/${enc(id)}`),
  deleteSession: (id: string) => call<void>('DELETE', `/api/sessions/${enc(id)}`),
  send: (id: string, text: string) =>
    call<{ turnId: string }>('POST', `/api/sessions/${enc(id)}/messages`, { text }),
  stop: (id: string) => call<unknown>('POST', `/api/sessions/${enc(id)}/stop`),
  approvals: (sessionId: string) =>
    call<{ approvals: Approval[] }>('GET', `/api/approvals?sessionId=${enc(sessionId)}`).then(
      (r) => r.approvals,
    ),
  answer: (id: string, answer: ApprovalAnswer) => call<Approval>('POST', `/api/approvals/${enc(id)}`, answer),
  tools: () => call<ToolsPageData>('GET', '/api/tools'),
  switchTool: (name: string, on: boolean) => call<ToolRow>('PUT', `/api/tools/${enc(name)}`, { on }),
  /** The session's event stream's address, after `after` when given. */
  eventsUrl: (id: string, after?: string) =>
    `/api/sessions/${enc(id)}/events${after === undefined ? '' : `?after=${enc(after)}`}`,
};
