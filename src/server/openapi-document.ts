/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), loosely typed. */
export type Schema = { readonly [key: string]: unknown };

/** The parts of an OpenAPI 3.1 document this server writes. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, Schema>>;
    readonly securitySchemes: Readonly<Record<string, Schema>>;
  };
}

interface Operation {
  readonly summary: string;
  readonly operationId: string;
  readonly parameters?: readonly Schema[];
  readonly requestBody?: Schema;
  readonly responses: Readonly<Record<string, Schema>>;
  readonly security?: readonly Schema[];
}

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Schema, description: string): Schema => ({
  description,
  content: { 'application/json': { schema } },
});
const body = (name: string): Schema => ({
  required: true,
  content: { 'application/json': { schema: ref(name) } },
});
const error = (description: string): Schema => json(ref('Error'), description);
const events: Schema = {
  description: 'Server-Sent Events: `id` (the event id), `event` (its type), `data` (a StreamEvent as JSON)',
  content: { 'text/event-stream': { schema: { type: 'string' }, itemSchema: ref('StreamEvent') } },
};
const path = (name: string, description: string): Schema => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});
const query = (name: string, description: string, schema: Schema = { type: 'string' }): Schema => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});
const text = { type: 'string' };
const time = { type: 'string', format: 'date-time' };
const orNull = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
const object = (
  properties: Record<string, Schema>,
  required: readonly string[] = Object.keys(properties),
): Schema => ({
  type: 'object',
  properties,
  required,
});
const sessionErrors = {
  '400': error('bad input (malformed JSON: bad_json; a field: bad_request)'),
  '404': error('unknown_session'),
};

/** The contract of `toolseam serve`, served at GET /api/openapi.json; the tests check responses against it. */
export const OPENAPI_DOCUMENT: OpenApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'toolseam serve',
    version: '1',
    description:
      'Sessions, turns streamed as Server-Sent Events (resumable with Last-Event-ID), approvals and the Tools page of one toolseam runtime. ' +
      'On loopback no token is needed but Host must name the server; elsewhere send a token (Bearer) or sign in for a cookie. ' +
      "A host may serve several people (toolseam users add NAME): each user's token reaches only their own sessions, turns, streams, " +
      "approvals and batches (another person's are answered 404, as if they did not exist), and once a host has users every request needs a token, on loopback too. " +
      'The owner\'s token (in <db>.token) manages users and switches tools; a switch and an "always: forever" grant reach every session, so they are the owner\'s alone (403 owner_only). ' +
      'Every 4xx/5xx body is an Error.',
  },
  paths: {
    '/api/health': {
      get: {
        summary: 'Whether the server takes turns',
        operationId: 'health',
        security: [],
        responses: { '200': json(ref('Health'), 'serving'), '503': json(ref('Health'), 'stopping') },
      },
    },
    '/api/openapi.json': {
      get: {
        summary: 'This document',
        operationId: 'openapi',
        responses: { '200': json({ type: 'object' }, 'the document') },
      },
    },
    '/api/sign-in': {
      post: {
        summary:
          "Exchanges a token (a user's or the owner's) for a session cookie (HttpOnly, SameSite=Strict)",
        operationId: 'signIn',
        security: [],
        requestBody: body('SignIn'),
        responses: {
          '204': { description: 'signed in' },
          '400': error('bad_json / bad_request'),
          '401': error('unauthorized'),
        },
      },
    },
    '/api/sessions': {
      get: {
        summary: 'Sessions a person started, most recently used first',
        operationId: 'listSessions',
        responses: { '200': json(ref('SessionList'), 'the sessions') },
      },
      post: {
        summary: 'Creates a session',
        operationId: 'createSession',
        requestBody: body('NewSession'),
        responses: {
          '201': json(ref('Session'), 'created'),
          '400': error('bad_json / bad_request / unknown_agent'),
        },
      },
    },
    '/api/sessions/{id}': {
      get: {
        summary: 'A session and its conversation',
        operationId: 'getSession',
        parameters: [path('id', 'session id')],
        responses: { '200': json(ref('SessionDetail'), 'the session'), '404': error('unknown_session') },
      },
      delete: {
        summary: 'Deletes a session and everything stored for it',
        operationId: 'deleteSession',
        parameters: [path('id', 'session id')],
        responses: {
          '204': { description: 'deleted' },
          '404': error('unknown_session'),
          '409': error('turn_running'),
        },
      },
    },
    '/api/sessions/{id}/messages': {
      post: {
        summary: 'Sends a message: starts a turn (with Accept: text/event-stream, the answer is its stream)',
        operationId: 'sendMessage',
        parameters: [path('id', 'session id')],
        requestBody: body('SendMessage'),
        responses: {
          '200': events,
          '202': json(ref('TurnStarted'), 'the turn started'),
          ...sessionErrors,
          '409': error('turn_running'),
          '413': error('body_too_large'),
          '503': error('shutting_down'),
        },
      },
    },
    '/api/sessions/{id}/stop': {
      post: {
        summary: 'Stops the turn running on the session',
        operationId: 'stopTurn',
        parameters: [path('id', 'session id')],
        responses: {
          '202': json(
            ref('TurnStopping'),
            'stopping (a turn another serve process runs is told to stop through the signals)',
          ),
          '404': error('unknown_session'),
          '409': error('no_turn'),
        },
      },
    },
    '/api/sessions/{id}/events': {
      get: {
        summary: "The session's events from Last-Event-ID (or ?after=) on, then live",
        operationId: 'sessionEvents',
        parameters: [
          path('id', 'session id'),
          query('after', 'resume after this event id (the Last-Event-ID header wins)'),
          query('turn', 'only this turn; the stream ends after its turn-end'),
          { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
        ],
        responses: { '200': events, ...sessionErrors },
      },
    },
    '/api/approvals': {
      get: {
        summary: "The caller's approvals still waiting, oldest first",
        operationId: 'listApprovals',
        parameters: [query('sessionId', "only this session's")],
        responses: { '200': json(ref('ApprovalList'), 'the approvals') },
      },
    },
    '/api/approvals/{id}': {
      post: {
        summary: 'Answers an approval',
        operationId: 'answerApproval',
        parameters: [path('id', 'approval id')],
        requestBody: body('ApprovalAnswer'),
        responses: {
          '200': json(ref('Approval'), 'answered'),
          '400': error('bad_json / bad_request'),
          '403': error('owner_only: a user answered "always": "forever"'),
          '404': error("unknown_approval (also another person's)"),
          '409': error('approval_answered / approval_mismatch / always_not_offered'),
        },
      },
    },
    '/api/tools': {
      get: {
        summary: 'The Tools page',
        operationId: 'toolsPage',
        responses: { '200': json(ref('ToolsPage'), 'every tool, its status and switch') },
      },
    },
    '/api/tools/{name}': {
      put: {
        summary: 'Switches a tool on or off from the next turn (on lifts a quarantine)',
        operationId: 'switchTool',
        parameters: [path('name', "the tool's real name")],
        requestBody: body('ToolSwitch'),
        responses: {
          '200': json(ref('ToolRow'), 'switched'),
          '400': error('bad_json / bad_request'),
          '403': error('owner_only: a switch applies to every session on the host'),
          '404': error('unknown_tool'),
          '409': error('fixed_by_config'),
        },
      },
    },
    '/api/turns/{id}': {
      get: {
        summary: "A turn's state",
        operationId: 'getTurn',
        parameters: [path('id', 'turn id')],
        responses: { '200': json(ref('Turn'), 'the turn'), '404': error('unknown_turn') },
      },
    },
    '/api/batches/{id}': {
      get: {
        summary: 'A subagent batch and its leaves',
        operationId: 'getBatch',
        parameters: [path('id', 'batch id')],
        responses: { '200': json(ref('Batch'), 'the batch'), '404': error('unknown_batch') },
      },
    },
    '/api/users': {
      get: {
        summary: 'The users the host serves, oldest first (the owner only)',
        operationId: 'listUsers',
        responses: { '200': json(ref('UserList'), 'the users'), '403': error('owner_only') },
      },
      post: {
        summary: 'Adds a user; the answer holds their token, shown this once (the store keeps only a hash)',
        operationId: 'addUser',
        requestBody: body('NewUser'),
        responses: {
          '201': json(ref('UserAdded'), 'added'),
          '400': error('bad_json / bad_request (a malformed or taken name)'),
          '403': error('owner_only'),
        },
      },
    },
    '/api/users/{name}': {
      delete: {
        summary: 'Revokes a user (by name or id): their token stops working at once; their sessions are kept',
        operationId: 'revokeUser',
        parameters: [path('name', "the user's name or id")],
        responses: {
          '204': { description: 'revoked' },
          '403': error('owner_only'),
          '404': error('unknown_user'),
        },
      },
    },
  },
  components: {
    securitySchemes: {
      token: {
        type: 'http',
        scheme: 'bearer',
        description:
          "A user's token (tsu.…) or the owner's; off loopback, and on loopback once the host has users",
      },
      cookie: { type: 'apiKey', in: 'cookie', name: 'toolseam_session' },
    },
    schemas: {
      Error: object({
        error: {
          type: 'object',
          properties: { code: text, message: text },
          required: ['code', 'message'],
          description:
            'code is stable and machine-readable; message is a sentence for a person; other fields add detail',
        },
      }),
      Health: object({
        status: { enum: ['ok', 'stopping'] },
        version: text,
        turnsRunning: { type: 'integer', minimum: 0 },
      }),
      SignIn: object({ token: text }),
      User: {
        ...object({ id: text, name: text, createdAt: time, revokedAt: orNull(time) }),
        additionalProperties: false,
      },
      UserList: object({ users: { type: 'array', items: ref('User') } }),
      NewUser: {
        ...object({ name: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' } }),
        additionalProperties: false,
      },
      UserAdded: object({ user: ref('User'), token: text }),
      Session: {
        ...object({
          id: text,
          title: text,
          agent: orNull(text),
          createdAt: time,
          updatedAt: time,
          running: { type: 'boolean' },
        }),
        additionalProperties: false,
      },
      SessionList: object({ sessions: { type: 'array', items: ref('Session') } }),
      NewSession: { type: 'object', properties: { title: text, agent: text }, additionalProperties: false },
      Message: {
        type: 'object',
        properties: {
          seq: { type: 'integer' },
          turnId: text,
          role: { enum: ['user', 'assistant', 'tool'] },
          text,
          toolCalls: {
            type: 'array',
            items: object({ callId: text, tool: text, arguments: { type: 'object' } }),
          },
          callId: text,
          tool: text,
          isError: { type: 'boolean' },
          createdAt: time,
        },
        required: ['seq', 'turnId', 'role', 'text', 'createdAt'],
        additionalProperties: false,
      },
      SessionDetail: object({
        session: ref('Session'),
        messages: { type: 'array', items: ref('Message') },
        lastEventId: {
          type: 'string',
          pattern: '^[0-9]+$',
          description:
            "the newest event of the session's finished turns: stream after it to replay an unfinished turn, then live",
        },
      }),
      SendMessage: {
        type: 'object',
        properties: { text: { type: 'string', minLength: 1 }, mode: { enum: ['agent', 'plan'] } },
        required: ['text'],
        additionalProperties: false,
      },
      TurnStarted: object({
        turnId: text,
        events: { type: 'string', description: 'where to read its events' },
      }),
      TurnStopping: object({ turnId: text }),
      StreamEvent: {
        type: 'object',
        description:
          'A RuntimeEvent (its type is the SSE event name) with the session and turn it belongs to',
        properties: {
          type: {
            enum: [
              'turn-start',
              'notice',
              'model-retry',
              'model-waiting',
              'tools-quarantined',
              'text-delta',
              'tool-call-start',
              'tool-call-end',
              'approval-request',
              'approval-resolved',
              'leaf',
              'turn-end',
            ],
          },
          sessionId: text,
          turnId: text,
        },
        required: ['type', 'sessionId', 'turnId'],
      },
      GrantScope: {
        type: 'object',
        properties: { kind: text, summary: text },
        required: ['kind', 'summary'],
      },
      Approval: {
        ...object({
          id: text,
          sessionId: text,
          turnId: text,
          callId: text,
          tool: text,
          arguments: { type: 'object' },
          risk: text,
          meaning: text,
          digest: text,
          status: { enum: ['pending', 'approved', 'denied', 'expired', 'cancelled'] },
          createdAt: time,
          always: orNull(object({ scope: ref('GrantScope'), session: text, forever: text })),
          leafTitle: orNull(text),
          notice: orNull(text),
          scope: orNull({ enum: ['once', 'session', 'forever'] }),
          reason: orNull(text),
          answeredBy: orNull(text),
          answeredAt: orNull(time),
          expiresAt: orNull(time),
        }),
        additionalProperties: false,
      },
      ApprovalList: object({ approvals: { type: 'array', items: ref('Approval') } }),
      ApprovalAnswer: {
        oneOf: [
          {
            type: 'object',
            properties: {
              decision: { const: 'approve' },
              always: { enum: ['session', 'forever'] },
              digest: text,
            },
            required: ['decision'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { decision: { const: 'deny' }, reason: text, digest: text },
            required: ['decision'],
            additionalProperties: false,
          },
        ],
      },
      Turn: object({
        id: text,
        sessionId: text,
        status: { enum: ['running', 'waiting_approval', 'done', 'failed', 'stopped', 'interrupted'] },
        userText: text,
        startedAt: time,
        endedAt: orNull(time),
        error: orNull(text),
        runningHere: { type: 'boolean' },
      }),
      Leaf: object({
        id: text,
        index: { type: 'integer' },
        title: text,
        status: { enum: ['queued', 'running', 'done', 'failed', 'timed_out'] },
        childSessionId: orNull(text),
        output: orNull(text),
        errors: { type: 'array', items: text },
        startedAt: orNull(time),
        endedAt: orNull(time),
      }),
      Batch: object({
        id: text,
        parentSessionId: text,
        turnId: orNull(text),
        title: text,
        status: { enum: ['running', 'done', 'failed'] },
        createdAt: time,
        endedAt: orNull(time),
        leaves: { type: 'array', items: ref('Leaf') },
      }),
      ToolRow: object({
        name: text,
        wireName: text,
        provider: text,
        app: text,
        group: text,
        status: { enum: ['offered', 'repaired', 'lifted', 'excluded'] },
        why: orNull(text),
        description: text,
        on: { type: 'boolean' },
        fixed: orNull({ enum: ['disabledTools', 'denyList'] }),
        quarantine: orNull(object({ provider: text, model: text, said: text })),
        switched: orNull(object({ on: { type: 'boolean' }, at: time, by: orNull(text) })),
      }),
      ToolsPage: object({
        tools: { type: 'array', items: ref('ToolRow') },
        failures: { type: 'array', items: object({ provider: text, app: text, message: text }) },
        // Which ranking chose the last turn's tools: "words", or words fused with embeddings.
        ranking: text,
        quarantined: {
          type: 'array',
          items: object(
            {
              provider: text,
              model: text,
              tool: text,
              said: text,
              sessionId: text,
              turnId: text,
              createdAt: time,
            },
            ['provider', 'model', 'tool', 'said', 'createdAt'],
          ),
        },
      }),
      ToolSwitch: {
        type: 'object',
        properties: { on: { type: 'boolean' } },
        required: ['on'],
        additionalProperties: false,
      },
    },
  },
};
