import type { JsonObject, JsonValue } from '../../../core/json.js';
import { isPlainObject } from '../../../core/json.js';
import type { ArgumentSlot, ContractOperation } from './contract-operations.js';

/** An HTTP request a contract tool sends (before auth). */
export interface ContractRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** Thrown when a request would leave the API's host (a path argument cannot do it; this is the guard). */
export class OffHostRequest extends Error {}

function scalar(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The request for one call: path arguments percent-encoded into the path, query arguments serialized by
 * their style and explode (form, the default, with lists repeated or comma-joined; spaceDelimited,
 * pipeDelimited; deepObject for objects), declared headers as text, and the body as JSON (or as a form
 * when the contract's body is one). The URL is the base URL's path joined with the operation's.
 */
export function contractRequest(
  operation: ContractOperation,
  args: JsonObject,
  baseUrl: URL,
): ContractRequest {
  let path = operation.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  let body: JsonObject | JsonValue | undefined;
  for (const [argument, value] of Object.entries(args)) {
    const slot = operation.slots.get(argument);
    if (slot === undefined || value === null) continue;
    if (slot.in === 'path') path = path.replaceAll(`{${slot.name}}`, encodeURIComponent(pathText(value)));
    else if (slot.in === 'query') addQuery(query, slot, value);
    else if (slot.in === 'header') headers[slot.name] = scalar(value);
    else if (slot.in === 'body') body = value;
    else {
      body = isPlainObject(body) ? body : {};
      body[slot.name] = value;
    }
  }
  const url = new URL(baseUrl.href.replace(/\/+$/, '') + path);
  if (url.origin !== baseUrl.origin) throw new OffHostRequest(`${url.origin} is not ${baseUrl.origin}`);
  for (const [key, value] of query) url.searchParams.append(key, value);
  if (body === undefined) return { method: operation.method, url, headers };
  if (operation.bodyType === 'application/x-www-form-urlencoded' && isPlainObject(body)) {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(body)) if (value !== null) form.append(key, scalar(value));
    headers['content-type'] = operation.bodyType;
    return { method: operation.method, url, headers, body: form.toString() };
  }
  headers['content-type'] = operation.bodyType ?? 'application/json';
  // A body that is not JSON (text, an octet stream) is sent as the text given, not as a JSON string.
  const json = /\bjson\b/i.test(headers['content-type']);
  return {
    method: operation.method,
    url,
    headers,
    body: !json && typeof body === 'string' ? body : JSON.stringify(body),
  };
}

function pathText(value: JsonValue): string {
  return Array.isArray(value) ? value.map(scalar).join(',') : scalar(value);
}

function addQuery(query: URLSearchParams, slot: ArgumentSlot, value: JsonValue): void {
  const { style: declaredStyle, explode: declaredExplode } = slot as { style?: string; explode?: boolean };
  const style = declaredStyle ?? 'form';
  const explode = declaredExplode ?? style === 'form';
  if (Array.isArray(value)) {
    const texts = value.map(scalar);
    if (style === 'form' && explode) for (const text of texts) query.append(slot.name, text);
    else
      query.append(
        slot.name,
        texts.join(style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ','),
      );
    return;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== null) as [string, JsonValue][];
    if (style === 'deepObject') for (const [k, v] of entries) query.append(`${slot.name}[${k}]`, scalar(v));
    else if (explode) for (const [k, v] of entries) query.append(k, scalar(v));
    else query.append(slot.name, entries.flatMap(([k, v]) => [k, scalar(v)]).join(','));
    return;
  }
  query.append(slot.name, scalar(value));
}
