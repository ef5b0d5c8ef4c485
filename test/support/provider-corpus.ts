import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { WireTool } from '../../src/core/model.js';
import type { RawAnswer, StandInFamily } from '../../src/testing/index.js';

/** One entry of `shared/corpus/provider-errors.json`. */
export interface CorpusEntry {
  readonly provider: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly source: string;
  readonly sdk_observed: { readonly class: string; readonly message_prefix: string } | null;
}

const root = resolve(import.meta.dirname, '..', '..');

/** The 50 real rejection bodies (a copy of `shared/corpus/provider-errors.json`, so a clean checkout has them). */
export function loadProviderCorpus(): CorpusEntry[] {
  const path = resolve(root, 'test', 'providers', 'corpus', 'provider-errors.json');
  return JSON.parse(readFileSync(path, 'utf8')) as CorpusEntry[];
}

/** Which adapter family serves a corpus provider. */
export function familyOfCorpus(provider: string): StandInFamily {
  if (provider === 'anthropic') return 'anthropic';
  if (provider.startsWith('bedrock')) return 'bedrock';
  return 'openai';
}

/** The entry as a stand-in answer: the body byte for byte, placeholder header values made real. */
export function corpusAnswer(entry: CorpusEntry): RawAnswer {
  const bodyRequestId = /"request_id":"([^"]+)"/.exec(entry.body)?.[1] ?? '';
  const headers = Object.fromEntries(
    Object.entries(entry.headers).map(([name, value]) => [
      name,
      value === '<same as body request_id>' ? bodyRequestId : value === '<uuid>' ? randomUUID() : value,
    ]),
  );
  return { status: entry.status, headers, body: entry.body };
}

/** How to build the tools a corpus case sends: `count` tools, some with a given name or schema. */
export interface ToolRecipe {
  readonly count: number;
  readonly names?: Readonly<Record<number, string>>;
  /** Property names the tool at an index declares (default: `q`). */
  readonly props?: Readonly<Record<number, readonly string[] | number>>;
  readonly parameters?: Readonly<Record<number, Record<string, unknown>>>;
}

/** The tools of a recipe: `tool_<i>` with one string property `q`, unless told otherwise. */
export function toolsFor(recipe: ToolRecipe): WireTool[] {
  return Array.from({ length: recipe.count }, (_, i) => {
    const props = recipe.props?.[i] ?? ['q'];
    const keys = typeof props === 'number' ? Array.from({ length: props }, (_, k) => `p${k}`) : props;
    const parameters = recipe.parameters?.[i] ?? {
      type: 'object',
      properties: Object.fromEntries(keys.map((k) => [k, { type: 'string', description: `the ${k}` }])),
    };
    return { name: recipe.names?.[i] ?? `tool_${i}`, description: `Tool number ${i}.`, parameters };
  });
}

/** What each corpus entry must become: the tools sent, the tools named, the provider code. */
export interface CorpusCase {
  readonly tools: ToolRecipe;
  /** Wire names `toolsNamedInRejection` must return. */
  readonly named: readonly string[];
  readonly code: string;
}

const PDF_PARAMETERS = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1, description: 'Relative path to the local PDF file.' },
    url: { type: 'string', format: 'uri', description: 'URL of the PDF file.' },
    pages: {
      anyOf: [
        { type: 'array', items: { type: 'integer', exclusiveMinimum: true, minimum: 0 }, minItems: 1 },
        { type: 'string', minLength: 1 },
      ],
      description:
        "Extract text only from specific pages (1-based) or ranges for *this specific source*. If provided, 'include_full_text' for the entire request is ignored for this source.",
    },
  },
  additionalProperties: false,
};

const TIKTOK_PARAMETERS = {
  type: 'object',
  properties: {
    video_path: { type: 'string', description: 'Where the video file is.' },
    description: { type: 'string', description: 'The description for the TikTok video' },
  },
};

const LONG_NAME = 'add_newam_task_with_due_date___8c498bee-e833-49a9-8a88-0ab59fa26cb8';

/** One case per corpus entry, in corpus order (written by hand from each body). */
export const CORPUS_CASES: readonly CorpusCase[] = [
  {
    tools: { count: 1, names: { 0: 'get_room_layout' } },
    named: ['get_room_layout'],
    code: 'invalid_function_parameters',
  },
  {
    tools: { count: 7, names: { 6: 'create_canvas' } },
    named: ['create_canvas'],
    code: 'invalid_function_parameters',
  },
  {
    tools: { count: 6, names: { 5: 'append-values' } },
    named: ['append-values'],
    code: 'invalid_function_parameters',
  },
  {
    tools: { count: 5, names: { 4: 'kafka_admin_topics' } },
    named: ['kafka_admin_topics'],
    code: 'invalid_function_parameters',
  },
  { tools: { count: 14, names: { 13: 'get_me' } }, named: ['get_me'], code: 'invalid_function_parameters' },
  {
    tools: { count: 3, names: { 1: 'odoo_model_inspector' } },
    named: ['odoo_model_inspector'],
    code: 'invalid_request_error',
  },
  { tools: { count: 2 }, named: ['tool_0'], code: 'invalid_value' },
  { tools: { count: 4 }, named: ['tool_3'], code: 'string_above_max_length' },
  { tools: { count: 14 }, named: ['tool_13'], code: 'string_above_max_length' },
  { tools: { count: 4 }, named: ['tool_3'], code: 'string_above_max_length' },
  {
    tools: { count: 2, names: { 1: 'mysql_execute' } },
    named: ['mysql_execute'],
    code: 'invalid_function_parameters',
  },
  {
    tools: { count: 3, names: { 2: 'json_edit_tool' } },
    named: ['json_edit_tool'],
    code: 'invalid_function_parameters',
  },
  {
    tools: { count: 9, names: { 8: 'add-documents' } },
    named: ['add-documents'],
    code: 'invalid_function_parameters',
  },
  { tools: { count: 39 }, named: ['tool_38'], code: 'invalid_request_error' },
  { tools: { count: 3 }, named: ['tool_2'], code: 'invalid_request_error' },
  { tools: { count: 18 }, named: ['tool_17'], code: 'invalid_request_error' },
  { tools: { count: 29 }, named: ['tool_28'], code: 'invalid_request_error' },
  { tools: { count: 19 }, named: ['tool_18'], code: 'invalid_request_error' },
  { tools: { count: 194 }, named: ['tool_193'], code: 'invalid_request_error' },
  { tools: { count: 27 }, named: ['tool_26'], code: 'invalid_request_error' },
  // Bedrock's Coral constraints count from 1: 'tools.1.member' is the first tool sent
  { tools: { count: 2 }, named: ['tool_0'], code: 'ValidationException' },
  { tools: { count: 112 }, named: ['tool_110'], code: 'ValidationException' },
  { tools: { count: 2 }, named: [], code: 'ValidationException' },
  { tools: { count: 1 }, named: ['tool_0'], code: 'ValidationException' },
  { tools: { count: 4 }, named: ['tool_3'], code: 'ValidationException' },
  { tools: { count: 2 }, named: ['tool_1'], code: 'ValidationException' },
  { tools: { count: 1 }, named: ['tool_0'], code: 'ValidationException' },
  { tools: { count: 7 }, named: ['tool_6'], code: 'ValidationException' },
  { tools: { count: 25 }, named: ['tool_24'], code: 'ValidationException' },
  // Gemini proto-parse errors count properties by position: properties[13] needs 14 of them
  { tools: { count: 1, props: { 0: 3 } }, named: ['tool_0'], code: 'INVALID_ARGUMENT' },
  { tools: { count: 9, props: { 4: 14, 8: 7 } }, named: ['tool_4', 'tool_8'], code: 'INVALID_ARGUMENT' },
  {
    tools: { count: 1, names: { 0: 'get_current_weather' } },
    named: ['get_current_weather'],
    code: 'INVALID_ARGUMENT',
  },
  {
    tools: { count: 9, names: { 1: 'browser_click' } },
    named: ['browser_click', 'tool_8'],
    code: 'INVALID_ARGUMENT',
  },
  { tools: { count: 12, props: { 11: ['accountability'] } }, named: ['tool_11'], code: 'INVALID_ARGUMENT' },
  {
    tools: { count: 5, props: { 3: ['tags'], 4: ['notes'] } },
    named: ['tool_3', 'tool_4'],
    code: 'INVALID_ARGUMENT',
  },
  { tools: { count: 1, names: { 0: 'go_to_next' } }, named: ['go_to_next'], code: 'INVALID_ARGUMENT' },
  { tools: { count: 41 }, named: ['tool_37', 'tool_39', 'tool_40'], code: 'INVALID_ARGUMENT' },
  { tools: { count: 1, props: { 0: ['commit_hash'] } }, named: ['tool_0'], code: 'INVALID_ARGUMENT' },
  { tools: { count: 2 }, named: [], code: 'INVALID_ARGUMENT' },
  { tools: { count: 3, props: { 2: ['mode'] } }, named: ['tool_2'], code: 'INVALID_ARGUMENT' },
  // OpenRouter relays the upstream body as text in metadata.raw; the upstream's own code is kept
  {
    tools: { count: 1, names: { 0: 'background_remover' } },
    named: ['background_remover'],
    code: 'invalid_function_parameters',
  },
  { tools: { count: 9 }, named: ['tool_8'], code: 'invalid_value' },
  { tools: { count: 2 }, named: [], code: 'INVALID_ARGUMENT' },
  { tools: { count: 2 }, named: [], code: 'server_error' },
  // Mistral quotes a Python repr of the parameters (or of one property's schema)
  {
    tools: { count: 2, names: { 1: 'read_pdf' }, parameters: { 1: PDF_PARAMETERS } },
    named: ['read_pdf'],
    code: 'invalid_request_error',
  },
  {
    tools: { count: 2, names: { 0: 'upload_tiktok_video' }, parameters: { 0: TIKTOK_PARAMETERS } },
    named: ['upload_tiktok_video'],
    code: 'invalid_request_error',
  },
  { tools: { count: 3, names: { 2: LONG_NAME } }, named: [LONG_NAME], code: 'invalid_request_error' },
  { tools: { count: 1 }, named: ['tool_0'], code: 'extra_forbidden' },
  { tools: { count: 1 }, named: ['tool_0'], code: 'extra_forbidden' },
  { tools: { count: 1 }, named: [], code: 'invalid_request_error' },
];
