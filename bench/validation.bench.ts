import { Ajv } from 'ajv';
import { isPlainObject } from '../src/core/json.js';
import { defineTool, field, missingArguments, mistypedArguments } from '../src/tools/index.js';
import type { BenchFigure } from './run.js';

/** A typical in-process tool: six fields of the usual kinds. */
const searchMessages = defineTool({
  name: 'search_messages',
  description: 'Searches the mailbox.',
  risk: 'safe',
  fields: {
    query: field.string({ maxLength: 200 }),
    max_results: field.integer({ min: 1, max: 100, default: 20 }),
    folder: field.string({ enum: ['archive', 'inbox', 'sent', 'spam'], default: 'inbox' }),
    unread_only: field.boolean({ safe: false }),
    since: field.string({ maxLength: 40, optional: true }),
    labels: field.list(field.string({ maxLength: 50 }), { maxItems: 10, optional: true }),
  },
  handler: () => '',
});

const CLEAN = {
  query: 'invoice from acme',
  max_results: 25,
  folder: 'inbox',
  unread_only: true,
  since: '2025-01-01',
  labels: ['work', 'billing'],
};

/** The same call as models often send it: other key spellings, numbers and booleans as text, a list as JSON text. */
const COERCED = {
  Query: 'invoice from acme',
  maxResults: '25',
  folder: 'inbox',
  UnreadOnly: ' Yes ',
  since: '2025-01-01',
  labels: '["work", "billing"]',
};

/** A typical MCP tool's declared input schema. */
const MCP_SCHEMA = {
  type: 'object',
  $defs: { attendee: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] } },
  properties: {
    calendar_id: { type: 'string', description: 'Calendar.' },
    summary: { type: 'string', maxLength: 200 },
    start: {
      type: 'object',
      properties: { date_time: { type: 'string' }, time_zone: { type: 'string' } },
      required: ['date_time'],
    },
    attendees: { type: 'array', items: { $ref: '#/$defs/attendee' } },
    reminders: { type: 'array', items: { type: 'integer' } },
    all_day: { type: 'boolean' },
  },
  required: ['calendar_id', 'summary', 'start'],
};

const MCP_ARGS = {
  calendar_id: 'primary',
  summary: 'Planning',
  start: { date_time: '2025-03-01T09:00:00Z' },
  attendees: [{ email: 'a@example.com' }, { email: 'b@example.com' }],
  reminders: [10, 30],
  all_day: false,
};

/** Best of several timed rounds, in operations per second. */
function opsPerSecond(work: () => void, perRound: number, rounds = 5): number {
  for (let i = 0; i < perRound / 4; i++) work();
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < perRound; i++) work();
    best = Math.min(best, Number(process.hrtime.bigint() - start));
  }
  return Math.round((perRound * 1e9) / best);
}

function usPerCall(work: () => void, perRound: number): number {
  return 1e6 / opsPerSecond(work, perRound);
}

/** What ajv would have to be given to judge only one keyword: the schema pared down to it. */
function pared(node: unknown, keyword: 'required' | 'type'): unknown {
  if (Array.isArray(node)) return node.map((n) => pared(n, keyword));
  if (!isPlainObject(node)) return node;
  const kept: Record<string, unknown> = {};
  for (const key of [keyword, '$ref', 'allOf', 'items', 'prefixItems']) {
    if (key in node) kept[key] = pared(node[key], keyword);
  }
  for (const key of ['properties', '$defs', 'definitions']) {
    const map = node[key];
    if (!isPlainObject(map)) continue;
    kept[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, pared(v, keyword)]));
  }
  return kept;
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`validation bench: ${what}`);
}

/** Validation throughput and the cost of the declared-schema checks. */
export async function bench(): Promise<BenchFigure[]> {
  check(searchMessages.read(CLEAN).ok && searchMessages.read(COERCED).ok, 'the sample calls must validate');
  check(missingArguments(MCP_ARGS, MCP_SCHEMA).length === 0, 'the MCP call must be complete');
  const target = '> 200,000/s';
  // A model's call arrives as a new object each time, and a tool reads each arguments object once (later
  // reads of the same object are a lookup), so each timed read is given a copy of its own.
  const clean = opsPerSecond(() => searchMessages.read({ ...CLEAN }), 200_000);
  const coerced = opsPerSecond(() => searchMessages.read({ ...COERCED }), 200_000);
  const refused = opsPerSecond(
    () => searchMessages.read({ ...CLEAN, maxResult: 5, max_results: 500 }),
    50_000,
  );

  const missing = usPerCall(() => missingArguments(MCP_ARGS, MCP_SCHEMA), 100_000);
  const mistyped = usPerCall(() => mistypedArguments(MCP_ARGS, MCP_SCHEMA), 100_000);
  const asSent = usPerCall(() => mistypedArguments(MCP_ARGS, MCP_SCHEMA, { asClientSends: true }), 100_000);

  const ajv = new Ajv({ allErrors: true, strict: false });
  const ajvMissing = ajv.compile(pared(MCP_SCHEMA, 'required') as object);
  check(ajvMissing(MCP_ARGS) === true, 'ajv must agree the call is complete');
  const ajvCall = usPerCall(() => ajvMissing(MCP_ARGS), 100_000);
  let n = 0;
  const ajvCompile = usPerCall(() => {
    n += 1;
    new Ajv({ allErrors: true, strict: false }).compile({
      ...(pared(MCP_SCHEMA, 'required') as object),
      title: `t${n}`,
    });
  }, 200);

  return [
    {
      name: 'validated calls, typical 6-field tool, clean arguments',
      value: clean,
      unit: 'calls/s',
      target,
      ok: clean > 200_000,
    },
    {
      name: 'validated calls, same tool, every coercion applied',
      value: coerced,
      unit: 'calls/s',
      target,
      ok: coerced > 200_000,
    },
    { name: 'refused calls (unknown key + out of bounds), same tool', value: refused, unit: 'calls/s' },
    { name: 'missingArguments, 6-property MCP schema', value: missing, unit: 'µs/call' },
    { name: 'mistypedArguments, same schema', value: mistyped, unit: 'µs/call' },
    { name: 'mistypedArguments as the MCP client sends, same schema', value: asSent, unit: 'µs/call' },
    { name: 'for comparison: ajv, pared schema compiled once, per call', value: ajvCall, unit: 'µs/call' },
    { name: 'for comparison: ajv, compiling that schema once', value: ajvCompile, unit: 'µs' },
  ];
}
