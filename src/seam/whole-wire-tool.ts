import { MAX_JSON_DEPTH } from '../core/json-depth.js';
import type { WireTool } from '../core/model.js';
import { mayHoldHalfCharacters, schemaJson } from '../core/schema-json.js';
import { wholeText } from '../core/text-cut.js';

/** A wire tool as a request can carry it, and where it held half of a character. */
export interface WholeWireTool {
  readonly tool: WireTool;
  /** Paths of the mended strings (`description`, `parameters.properties.q.description`, …); empty when none. */
  readonly mended: readonly string[];
}

/**
 * `tool` with every string of its description and parameters whole: a half of a surrogate pair (text cut
 * inside an emoji by the tool's author) becomes U+FFFD, on the wire copy only (calls are still checked
 * against the declared schema). The tool itself comes back when nothing needed it.
 *
 * Checked per tool a request carries rather than per node of the seam's walk: asking the engine about a
 * string costs a call into its C++, which on every node would cost the cold pass about 4 %.
 */
export function wholeWireTool(tool: WireTool): WholeWireTool {
  const mended: string[] = [];
  const description = wholeText(tool.description);
  if (description !== tool.description) mended.push('description');
  // Most schemas hold no half character, which their JSON text shows without a walk.
  const parameters = mayHoldHalfCharacters(schemaJson(tool.parameters))
    ? wholeValue(tool.parameters, 'parameters', mended, 0)
    : tool.parameters;
  if (mended.length === 0) return { tool, mended };
  return { tool: { ...tool, description, parameters: parameters as WireTool['parameters'] }, mended };
}

/**
 * `value` with its strings whole (a copy only along the paths that changed). An offered schema is at most
 * the seam's depth; deeper than any offer, a value is left as it is rather than walked past the stack.
 */
function wholeValue(value: unknown, path: string, mended: string[], depth: number): unknown {
  if (depth > MAX_JSON_DEPTH) return value;
  if (typeof value === 'string') {
    const whole = wholeText(value);
    if (whole !== value) mended.push(path);
    return whole;
  }
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const whole = wholeValue(item, `${path}[${i}]`, mended, depth + 1);
      if (whole !== item) {
        out ??= [...value];
        out[i] = whole;
      }
    });
    return out ?? value;
  }
  if (value === null || typeof value !== 'object') return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const whole = wholeValue(item, `${path}.${key}`, mended, depth + 1);
    if (whole !== item) {
      out ??= { ...value };
      Object.defineProperty(out, key, { value: whole, enumerable: true, writable: true, configurable: true });
    }
  }
  return out ?? value;
}
