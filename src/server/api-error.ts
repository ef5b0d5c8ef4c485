import { ToolseamError } from '../core/errors.js';

/** A refusal the API answers with a 4xx or 5xx and a body `{"error": {"code", "message", …details}}`. */
export class ApiError extends ToolseamError {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 500 | 501 | 503,
    code: string,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(code, message);
  }
}

/** The JSON body of an error response. */
export function errorBody(code: string, message: string, details: Readonly<Record<string, unknown>> = {}) {
  return { error: { ...details, code, message } };
}

/** The status and stable code a toolseam error raised below the API answers with. */
const KNOWN: Readonly<Record<string, readonly [ApiError['status'], string]>> = {
  bad_input: [400, 'bad_request'],
  store_not_found: [404, 'not_found'],
  approval_closed: [409, 'approval_answered'],
  store_conflict: [409, 'conflict'],
  approval_mismatch: [409, 'approval_mismatch'],
  always_not_offered: [409, 'always_not_offered'],
  turn_running: [409, 'turn_running'],
  turn_busy: [409, 'turn_running'],
  unknown_tool: [404, 'unknown_tool'],
  unknown_session: [404, 'unknown_session'],
  fixed_by_config: [409, 'fixed_by_config'],
  runtime_closed: [503, 'shutting_down'],
  store_busy: [503, 'store_busy'],
};

/** An error as the API answers it; anything unforeseen is a 500 whose message names no internals. */
export function apiErrorOf(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof ToolseamError) {
    const known = KNOWN[error.code];
    if (known) return new ApiError(known[0], known[1], error.message, detailsOf(error));
  }
  return new ApiError(
    500,
    'internal',
    'Something went wrong inside the server; it goes on serving. Its log says more.',
  );
}

/** The structured fields a toolseam error carries that a client may act on (the tool, the nearest name, the key). */
function detailsOf(error: ToolseamError): Record<string, unknown> {
  const fields = error as unknown as Record<string, unknown>;
  const details: Record<string, unknown> = {};
  for (const key of ['tool', 'suggestion', 'fixedBy', 'rule', 'sessionId', 'approvalId']) {
    const value = fields[key];
    if (typeof value === 'string') details[key] = value;
  }
  return details;
}
