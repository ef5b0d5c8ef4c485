import type { ToolseamConfig } from './config.js';
import type { ProviderConfig } from './providers/index.js';
import { credentialVariables } from './tools/redact-secrets.js';

/** A header whose name says it carries a credential (`Authorization`, `x-api-key`, `Cookie`…). */
const CREDENTIAL_HEADER = /key|token|secret|passw(?:or)?d|auth|credential|cookie|session/i;

/** `Bearer abc…`, `Basic …`, `Token …`: the scheme word before the credential itself. */
const AUTH_SCHEME = /^(?:bearer|basic|token|bot|apikey|api-key)\s+(\S.*)$/i;

type ModelSettings = Partial<Pick<ProviderConfig, 'apiKey' | 'headers' | 'credentials'>>;

/** Adds `value` under `name`, or under `name#2`… when another value already holds that name. */
function put(out: Map<string, string>, name: string, value: string): void {
  let key = name;
  for (let n = 2; out.has(key) && out.get(key) !== value; n += 1) key = `${name}#${n}`;
  out.set(key, value);
}

function addHeaders(
  out: Map<string, string>,
  where: string,
  headers: Readonly<Record<string, string>> | undefined,
): void {
  for (const [header, value] of Object.entries(headers ?? {})) {
    if (!CREDENTIAL_HEADER.test(header)) continue;
    put(out, `${where}.headers.${header}`, value);
    // A server that echoes the token alone (not "Bearer …") must not show it either.
    const token = AUTH_SCHEME.exec(value.trim())?.[1];
    if (token !== undefined) put(out, `${where}.headers.${header}.token`, token);
  }
}

function addModel(out: Map<string, string>, model: ModelSettings | undefined): void {
  if (model === undefined) return;
  if (model.apiKey) put(out, 'model.apiKey', model.apiKey);
  if (model.credentials?.secretAccessKey) {
    put(out, 'model.credentials.secretAccessKey', model.credentials.secretAccessKey);
  }
  if (model.credentials?.sessionToken) {
    put(out, 'model.credentials.sessionToken', model.credentials.sessionToken);
  }
  addHeaders(out, 'model', model.headers);
}

/**
 * The credentials written into the config itself, or given with the model, name → value: the model's key,
 * AWS secret key and session token, credential headers (the model's and each MCP server's) and each stdio
 * server's credential-named variables. A tool that shows `toolseam.json` (read_file, which asks nobody)
 * must not hand them to the model or the store, so the runtime hides them from results; they never fill a
 * `{{secret:NAME}}`.
 */
export function configCredentials(
  config: ToolseamConfig | undefined,
  model?: ModelSettings,
): Map<string, string> {
  const out = new Map<string, string>();
  addModel(out, config?.model);
  addModel(out, model);
  for (const server of config?.tools.mcpServers ?? []) {
    const where = `mcpServers.${server.name}`;
    if (server.kind === 'http') addHeaders(out, where, server.headers);
    else {
      for (const [name, value] of credentialVariables(server.env)) put(out, `${where}.env.${name}`, value);
    }
  }
  return out;
}
