import { ProviderError } from '../../core/errors.js';
import { isPlainObject } from '../../core/json.js';

/** What an error says that can point at a tool: its status, texts, `param`s and validation locations. */
export interface RejectionEvidence {
  readonly status: number | undefined;
  readonly code: string | undefined;
  /** Every message-like text, including upstream bodies a router relays (OpenRouter's `metadata.raw`). */
  readonly texts: readonly string[];
  /** OpenAI-style `param` values, e.g. `tools[3].function.parameters`. */
  readonly params: readonly string[];
  /** FastAPI-style validation locations (Mistral's 422 `loc`), e.g. `["body","tools",0,"function"]`. */
  readonly locations: readonly (readonly (string | number)[])[];
}

const TEXT_KEYS = new Set(['message', 'msg', 'field', 'description', 'detail', 'raw']);
/** Keys whose value echoes the request back; a tool named there is not the one being blamed. */
const ECHO_KEYS = new Set(['input', 'ctx', 'url']);

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

class Collector {
  readonly texts: string[] = [];
  readonly params: string[] = [];
  readonly locations: (string | number)[][] = [];
  private depth = 0;

  text(value: string): void {
    if (value === '' || this.texts.includes(value)) return;
    this.texts.push(value);
    const nested = parseJson(value);
    if (nested !== undefined) this.walk(nested);
  }

  walk(value: unknown): void {
    if (this.depth > 12) return;
    this.depth += 1;
    if (Array.isArray(value)) {
      for (const item of value) this.walk(item);
    } else if (isPlainObject(value)) {
      for (const [key, item] of Object.entries(value)) this.entry(key, item);
    }
    this.depth -= 1;
  }

  private entry(key: string, item: unknown): void {
    if (ECHO_KEYS.has(key)) return;
    if (key === 'param' && typeof item === 'string') {
      this.params.push(item);
    } else if (key === 'loc' && Array.isArray(item)) {
      this.locations.push(
        item.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number'),
      );
    } else if (TEXT_KEYS.has(key) && typeof item === 'string') {
      this.text(item);
    } else {
      this.walk(item);
    }
  }
}

function statusOf(error: Record<string, unknown>): number | undefined {
  const direct = error['status'];
  if (typeof direct === 'number') return direct;
  const metadata = error['$metadata'];
  if (isPlainObject(metadata) && typeof metadata['httpStatusCode'] === 'number') {
    return metadata['httpStatusCode'];
  }
  return undefined;
}

/** Gathers the evidence in `error`: a `ProviderError` (its raw body first) or any SDK error. */
export function rejectionEvidence(error: unknown): RejectionEvidence {
  const collector = new Collector();
  let status: number | undefined;
  let code: string | undefined;
  if (error instanceof ProviderError) {
    status = error.status;
    code = error.providerCode;
    const parsed = parseJson(error.rawBody);
    if (parsed === undefined) collector.text(error.rawBody);
    else collector.walk(parsed);
    collector.text(error.message);
  } else if (isPlainObject(error) || error instanceof Error) {
    const record = error as unknown as Record<string, unknown>;
    status = statusOf(record);
    code = typeof record['name'] === 'string' ? record['name'] : undefined;
    collector.walk(record['error']);
    if (typeof record['message'] === 'string') collector.text(record['message']);
  } else if (typeof error === 'string') {
    collector.text(error);
  }
  return {
    status,
    code,
    texts: collector.texts,
    params: collector.params,
    locations: collector.locations,
  };
}

/** True when the error is a request-validation failure (400/422), the only kind a tool definition causes. */
export function isValidationFailure(evidence: RejectionEvidence): boolean {
  if (evidence.status === 400 || evidence.status === 422) return true;
  return evidence.status === undefined && /validation/i.test(evidence.code ?? '');
}
