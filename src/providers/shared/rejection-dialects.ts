import { isPlainObject } from '../../core/json.js';
import type { WireTool } from '../../core/model.js';
import { pythonRepr } from './python-repr.js';
import type { RejectionEvidence } from './rejection-evidence.js';

/** What one way of pointing at a tool found in an error. */
export interface DialectFinding {
  /** Indexes into the tools this request sent. */
  readonly indices: readonly number[];
  /** The error used this dialect's path form at all (even if no index could be trusted). */
  readonly sawPath: boolean;
  /** Found by the tool's own name or schema text rather than by position (stronger evidence). */
  readonly byName: boolean;
}

/** One way providers point at a tool definition. */
export type RejectionDialect = (evidence: RejectionEvidence, sent: readonly WireTool[]) => DialectFinding;

const NOTHING: DialectFinding = { indices: [], sawPath: false, byName: false };

function inRange(index: number, sent: readonly WireTool[]): boolean {
  return Number.isInteger(index) && index >= 0 && index < sent.length;
}

function byIndex(
  sources: readonly string[],
  pattern: RegExp,
  sent: readonly WireTool[],
  toIndex: (m: RegExpMatchArray) => number,
): DialectFinding {
  const indices: number[] = [];
  let sawPath = false;
  for (const text of sources) {
    for (const match of text.matchAll(pattern)) {
      sawPath = true;
      const index = toIndex(match);
      if (inRange(index, sent)) indices.push(index);
    }
  }
  return { indices, sawPath, byName: false };
}

function propertiesOf(tool: WireTool): Record<string, unknown> {
  const props = tool.parameters['properties'];
  return isPlainObject(props) ? props : {};
}

/**
 * Whether a Gemini declaration path can be trusted to mean `tool`: when it names a property under
 * `.parameters`, that tool must declare it — by key (`properties[name]`, semantic errors) or by position
 * (`properties[3].value`, proto-parse errors count keys in the order sent).
 */
function declarationFits(tool: WireTool, rest: string): boolean {
  const at = rest.indexOf('.parameters');
  if (at < 0) return true;
  const named = /^\.properties\[([^\]]+)\](\.value)?/.exec(rest.slice(at + '.parameters'.length));
  if (!named) return true;
  const key = (named[1] ?? '').replace(/^['"]|['"]$/g, '');
  const props = propertiesOf(tool);
  if (named[2] && /^\d+$/.test(key)) return Object.keys(props).length > Number(key);
  return Object.hasOwn(props, key);
}

/** Gemini (native and OpenAI-compatible): `function_declarations[K]...`, trusted only when it fits. */
export const geminiDeclarations: RejectionDialect = (evidence, sent) => {
  const pattern = /(?:function_declarations|functionDeclarations)\[(\d+)\]((?:\.\w+(?:\[[^\]]*\])?)*)/g;
  const indices: number[] = [];
  let sawPath = false;
  for (const text of evidence.texts) {
    for (const match of text.matchAll(pattern)) {
      sawPath = true;
      const index = Number(match[1]);
      const tool = sent[index];
      if (tool && declarationFits(tool, match[2] ?? '')) indices.push(index);
    }
  }
  return { indices, sawPath, byName: false };
};

/** OpenAI Chat/Responses: `param` or message `tools[N].function.…` / `tools[N].parameters` (0-based). */
export const openaiToolPaths: RejectionDialect = (evidence, sent) =>
  byIndex(
    [...evidence.params, ...evidence.texts],
    /(?<![\w.])tools\[(\d+)\](?=\.(?:function|parameters|name|description|strict)\b)/g,
    sent,
    (m) => Number(m[1]),
  );

/** Anthropic (also relayed by Bedrock for Claude): `tools.N.custom.…` (0-based). */
export const anthropicToolPaths: RejectionDialect = (evidence, sent) =>
  byIndex(evidence.texts, /(?<![\w.])tools\.(\d+)\.custom\b/g, sent, (m) => Number(m[1]));

/** Bedrock: Coral constraint errors `toolConfig.tools.K.member` (1-based) and `toolConfig.tools.K.toolSpec` (0-based). */
export const bedrockToolPaths: RejectionDialect = (evidence, sent) => {
  const member = byIndex(
    evidence.texts,
    /toolConfig\.tools\.(\d+)\.member\b/g,
    sent,
    (m) => Number(m[1]) - 1,
  );
  const spec = byIndex(evidence.texts, /toolConfig\.tools\.(\d+)\.toolSpec\b/g, sent, (m) => Number(m[1]));
  return {
    indices: [...member.indices, ...spec.indices],
    sawPath: member.sawPath || spec.sawPath,
    byName: false,
  };
};

/** FastAPI-style validation (Mistral 422): `loc: ["body","tools",N,…]`, possibly with a union tag before N. */
export const validationLocations: RejectionDialect = (evidence, sent) => {
  const indices: number[] = [];
  let sawPath = false;
  for (const loc of evidence.locations) {
    const at = loc.indexOf('tools');
    if (at < 0) continue;
    const index = loc.slice(at + 1, at + 3).find((part) => typeof part === 'number');
    if (index === undefined) continue;
    sawPath = true;
    if (inRange(index, sent)) indices.push(index);
  }
  return { indices, sawPath, byName: false };
};

function indexOfName(sent: readonly WireTool[], name: string): number {
  return sent.findIndex((tool) => tool.name === name);
}

/**
 * By the tool's own name: `… for function 'NAME'` in a schema error (OpenAI, its proxies), and Mistral's
 * `Function name was NAME but must be …`.
 */
export const quotedToolNames: RejectionDialect = (evidence, sent) => {
  const indices: number[] = [];
  for (const text of evidence.texts) {
    if (/schema|parameters|properties/i.test(text)) {
      for (const m of text.matchAll(/\b(?:function|tool)\s+['"]([^'"]+)['"]/gi)) {
        indices.push(indexOfName(sent, m[1] ?? ''));
      }
    }
    for (const m of text.matchAll(/\bFunction name was (\S+) but must\b/g)) {
      indices.push(indexOfName(sent, m[1] ?? ''));
    }
  }
  return { indices: indices.filter((i) => i >= 0), sawPath: false, byName: true };
};

function subschemas(node: unknown, out: unknown[], depth = 0): unknown[] {
  if (depth > 24) return out;
  if (Array.isArray(node)) {
    for (const item of node) subschemas(item, out, depth + 1);
  } else if (isPlainObject(node)) {
    if (Object.keys(node).length >= 2) out.push(node);
    for (const value of Object.values(node)) subschemas(value, out, depth + 1);
  }
  return out;
}

/**
 * Mistral's `Invalid tool schema: {python repr} …`: the tool whose parameters print that way, else the
 * tools carrying a sub-schema that does (every tool carrying it is rejected for the same reason).
 */
export const pythonReprSchemas: RejectionDialect = (evidence, sent) => {
  const texts = evidence.texts.filter((t) => /tool schema/i.test(t));
  if (texts.length === 0) return NOTHING;
  const has = (node: unknown) => {
    const printed = pythonRepr(node);
    return texts.some((t) => t.includes(printed));
  };
  let indices = sent.flatMap((tool, i) => (has(tool.parameters) ? [i] : []));
  if (indices.length === 0) {
    indices = sent.flatMap((tool, i) => (subschemas(tool.parameters, []).some(has) ? [i] : []));
  }
  return { indices, sawPath: false, byName: true };
};

/**
 * The last resort, for servers with none of the forms above: when a text talks about a schema, any
 * `tools[N]` / `tools.N.` index and any quoted tool name of this request.
 */
export const genericToolMentions: RejectionDialect = (evidence, sent) => {
  const indices: number[] = [];
  for (const text of evidence.texts) {
    if (!/parameters|input_?schema|schema|properties/i.test(text)) continue;
    for (const m of text.matchAll(/\btools(?:\[(\d+)\]|\.(\d+)(?=\.))/g)) {
      const index = Number(m[1] ?? m[2]);
      if (inRange(index, sent)) indices.push(index);
    }
    for (const m of text.matchAll(/\b(?:function|tool)\s+['"]([^'"]+)['"]/gi)) {
      const index = indexOfName(sent, m[1] ?? '');
      if (index >= 0) indices.push(index);
    }
  }
  return { indices, sawPath: false, byName: false };
};
