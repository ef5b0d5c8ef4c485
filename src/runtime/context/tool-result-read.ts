import type { JsonObject } from '../../core/json.js';
import type { ToolResult } from '../../core/tool.js';
import type { RuntimeTool, RuntimeToolContext } from '../calls/runtime-tool.js';
import { parseLeafResultId } from './leaf-result-id.js';

/** The name of the runtime tool that reads a result kept whole. */
export const TOOL_RESULT_READ = 'tool_result_read';

/** Most characters one read returns. */
export const READ_CHARS = 8_000;
/** Most matching lines a search returns. */
const MOST_MATCHES = 50;

function failed(message: string, code: string): ToolResult {
  return { content: `Error: ${message}`, isError: true, data: { code } };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** Room kept in one read for its notes (what part it is, where the rest is). */
const NOTE_ROOM = 200;

/** Most characters one read returns in this call: within the result's bound, so a read is never cut itself. */
function readChars(ctx: RuntimeToolContext): number {
  return Math.max(500, Math.min(READ_CHARS, (ctx.resultChars ?? READ_CHARS) - NOTE_ROOM));
}

/** Lines `from`..`to` (1-based, inclusive), each with its number, at most `most` characters of them. */
function lineRange(text: string, from: number, to: number, most: number): string {
  const lines = text.split('\n');
  const last = Math.min(lines.length, to);
  const shown = lines.slice(from - 1, last).map((line, i) => `${from + i}: ${line}`);
  const more = last < lines.length ? `\n[lines ${last + 1}–${lines.length} follow]` : '';
  return `${shown.join('\n').slice(0, most)}${more}`;
}

/** Lines holding `pattern` (a regular expression, else plain text), each with its number and character offset. */
function search(text: string, pattern: string, most: number): ToolResult {
  let test: (line: string) => boolean;
  try {
    const re = new RegExp(pattern, 'i');
    test = (line) => re.test(line);
  } catch {
    const lower = pattern.toLowerCase();
    test = (line) => line.toLowerCase().includes(lower);
  }
  const found: string[] = [];
  let offset = 0;
  let total = 0;
  let used = 0;
  for (const [i, line] of text.split('\n').entries()) {
    if (test(line)) {
      total += 1;
      const shown = `${i + 1} (offset ${offset}): ${line.slice(0, 300)}`;
      if (found.length < MOST_MATCHES && used + shown.length + 1 <= most) {
        found.push(shown);
        used += shown.length + 1;
      }
    }
    offset += line.length + 1;
  }
  if (total === 0) return { content: `No line holds ${JSON.stringify(pattern)}.`, isError: false };
  const more =
    total > found.length ? `\n[${total - found.length} more matching lines; narrow the pattern]` : '';
  return { content: `${total} matching line(s):\n${found.join('\n')}${more}`, isError: false };
}

/** The whole text kept under `id` for this session: a long tool result, or a subagent leaf's output. */
async function keptText(id: string, ctx: RuntimeToolContext): Promise<string | undefined> {
  const leaf = parseLeafResultId(id);
  if (leaf !== undefined) {
    const batch = await ctx.store.getBatch(leaf.batchId);
    if (batch?.parentSessionId !== ctx.sessionId) return undefined;
    return batch.leaves.find((l) => l.index === leaf.index)?.output;
  }
  const kept = await ctx.store.getFullResult(id);
  return kept?.sessionId === ctx.sessionId ? kept.content : undefined;
}

async function read(args: JsonObject, ctx: RuntimeToolContext): Promise<ToolResult> {
  const id = args['id'];
  if (typeof id !== 'string' || id === '')
    return failed('give the result\'s "id" (it is in the note of the cut result).', 'missing_id');
  const text = await keptText(id, ctx);
  if (text === undefined)
    return failed(`there is no kept result ${JSON.stringify(id)} in this session.`, 'unknown_result');
  if (typeof args['pattern'] === 'string' && args['pattern'] !== '')
    return search(text, args['pattern'], readChars(ctx));
  const most = readChars(ctx);
  const from = count(args['line_from']);
  if (from !== undefined && from > 0)
    return { content: lineRange(text, from, count(args['line_to']) ?? from + 199, most), isError: false };
  const offset = count(args['offset']) ?? 0;
  const length = Math.min(most, count(args['length']) ?? most);
  const part = text.slice(offset, offset + length);
  const end = offset + part.length;
  const more =
    end < text.length
      ? `\n[characters ${end}–${text.length} follow: call ${TOOL_RESULT_READ} with offset ${end}]`
      : '\n[end of the result]';
  return { content: `[characters ${offset}–${end} of ${text.length}]\n${part}${more}`, isError: false };
}

/** `tool_result_read`: reads a tool result kept whole, by characters, by lines, or by a search. */
export function toolResultRead(): RuntimeTool {
  return {
    definition: {
      name: TOOL_RESULT_READ,
      description:
        'Read a tool result that was too long to show whole. Give its id (from the note in the cut result) and either offset and length (characters), line_from and line_to (line numbers), or pattern (lines matching it). ' +
        'A result without such an id came from a tool that reads in parts itself (read_file with offset): call that tool again as its note says.',
      parameters: {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'The id the cut result names.' },
          offset: { type: 'integer', description: 'First character to read (0 is the start).' },
          length: { type: 'integer', description: `Characters to read, at most ${READ_CHARS}.` },
          line_from: { type: 'integer', description: 'First line to read (1 is the first).' },
          line_to: { type: 'integer', description: 'Last line to read.' },
          pattern: {
            type: 'string',
            description: 'Find the lines holding this (a regular expression or plain text).',
          },
        },
        required: ['id'],
      },
      risk: 'safe',
      readOnly: true,
      requiresApproval: false,
    },
    run: read,
  };
}
