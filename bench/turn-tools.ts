import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';

const VERBS = [
  'create',
  'update',
  'find',
  'cancel',
  'archive',
  'approve',
  'export',
  'schedule',
  'assign',
  'refund',
] as const;
const SUBJECTS = [
  'album',
  'article',
  'badge',
  'booking',
  'budget',
  'calendar',
  'campaign',
  'claim',
  'concert',
  'contract',
  'course',
  'device',
  'donation',
  'expense',
  'flight',
  'garden',
  'grant',
  'harvest',
  'invoice',
  'lesson',
  'license',
  'listing',
  'loan',
  'meeting',
  'order',
  'parcel',
  'patient',
  'payroll',
  'playlist',
  'recipe',
  'repair',
  'route',
  'shipment',
  'subscription',
  'survey',
  'tenant',
  'ticket',
  'vehicle',
  'volunteer',
  'warehouse',
] as const;
const QUALIFIERS = [
  'draft',
  'note',
  'reminder',
  'owner',
  'label',
  'comment',
  'attachment',
  'history',
  'status',
  'deadline',
  'budget_line',
  'approval',
  'template',
  'tag',
  'review',
  'quota',
  'priority',
  'location',
  'contact',
  'summary',
  'export_job',
  'audit',
  'rating',
  'schedule',
  'archive',
] as const;
/** The values of every tool's `status` parameter. */
export const STATUSES = ['open', 'pending', 'done', 'cancelled'];

/** One tool of the benchmark's catalogue, as both sides declare it. */
export interface BenchToolSpec {
  readonly name: string;
  readonly description: string;
}

/** Most tools the catalogue holds: each (verb, subject, qualifier) once. */
export const MAX_BENCH_TOOLS = VERBS.length * SUBJECTS.length * QUALIFIERS.length;

/** Tool `i` of the catalogue: the same name and words every run, every tool a different name. */
function specAt(i: number): BenchToolSpec {
  const verb = VERBS[i % VERBS.length] as string;
  const subject = SUBJECTS[Math.floor(i / VERBS.length) % SUBJECTS.length] as string;
  const round = Math.floor(i / (VERBS.length * SUBJECTS.length));
  const qualifier = QUALIFIERS[(round + i) % QUALIFIERS.length] as string;
  const what = `${subject} ${qualifier.replace('_', ' ')}`;
  return {
    name: `${verb}_${subject}_${qualifier}`,
    description: `${verb[0]?.toUpperCase()}${verb.slice(1)} the ${what} with the given id, for the given owner; returns the ${subject} record as stored, with its status and last change.`,
  };
}

/** The first `n` tools of the catalogue (deterministic). */
export function benchToolSpecs(n: number): BenchToolSpec[] {
  if (n > MAX_BENCH_TOOLS) throw new Error(`The catalogue holds ${MAX_BENCH_TOOLS} tools, not ${n}.`);
  return Array.from({ length: n }, (_, i) => specAt(i));
}

/** What every ask says right after the tool's words, so the loopback can read which tool was asked for. */
export const ASK_END = ' for record r-';

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * What a benchmark's turns ask for among `n` tools: each turn another tool, named in words in its user
 * message, as a person's requests vary (asking for one tool every turn would let every cache on the way
 * hold the same selection, catalogue and wire forms, which no person's session gets). The tools asked
 * walk the catalogue by a stride prime to `n`, so `n` turns ask for each tool once.
 */
export function targetOf(n: number): { readonly ask: (turn: number) => string } {
  let stride = Math.max(1, Math.round(n * 0.618));
  while (gcd(stride, n) !== 1) stride += 1;
  const start = Math.floor(n / 2) + 1;
  return {
    ask: (turn) => {
      const words = specAt((start + turn * stride) % n).name.replaceAll('_', ' ');
      return `Please ${words}${ASK_END}${turn}, owner Dana.`;
    },
  };
}

/** What each parameter of every tool says about itself. */
export const PARAMETER_TEXT = {
  id: 'The record id, such as r-12.',
  owner: 'Who the record belongs to (a person or team name).',
  limit: 'How many matching records to return at most.',
  notify: 'Tell the owner about the change.',
} as const;

/** The tool as a hand-written Chat Completions definition, as a bare SDK user writes it. */
export function openaiTool(spec: BenchToolSpec): ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: {
      name: spec.name,
      description: spec.description,
      parameters: {
        type: 'object',
        properties: {
          id: { type: 'string', description: PARAMETER_TEXT.id, maxLength: 64 },
          owner: { type: 'string', description: PARAMETER_TEXT.owner },
          limit: { type: 'integer', description: PARAMETER_TEXT.limit, minimum: 1, maximum: 100 },
          status: { type: 'string', enum: STATUSES },
          notify: { type: 'boolean', description: PARAMETER_TEXT.notify },
        },
        required: ['id'],
        additionalProperties: false,
      },
    },
  };
}

/** What every tool answers (both sides run the same handler). */
export function runBenchTool(name: string, args: { readonly id?: unknown }): string {
  return `${name}: record ${String(args.id)} is stored, status open.`;
}

/** The arguments the loopback model calls every tool with. */
export const CALL_ARGUMENTS = { id: 'r-7', owner: 'Dana' } as const;

/** One side of the comparison, running turns against the loopback. */
export interface TurnSide {
  /**
   * One turn (user message, tool call, answer) in a new conversation, or with `conversation` in the
   * long one of that name (begun by its first turn); true when the tool ran.
   */
  turn(text: string, conversation?: string): Promise<boolean>;
  close(): Promise<void>;
}

/** `count` turns of one side in `conversation` (new ones if none), asked `ask(0)`, `ask(1)`, …, each timed into `into`. */
export async function timedBlock(
  side: TurnSide,
  ask: (i: number) => string,
  count: number,
  conversation: string | undefined,
  into: { readonly ms: number[]; ran: number },
): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const t = performance.now();
    if (await side.turn(ask(i), conversation)) into.ran += 1;
    into.ms.push(performance.now() - t);
  }
}
