import type { JsonObject } from '../../../core/json.js';
import { isPlainObject } from '../../../core/json.js';
import type { ToolContext, ToolDefinition, ToolProvider, ToolResult } from '../../../core/tool.js';
import { invalidArgumentsResult } from '../../fields/define-tool.js';
import { redactSecrets } from '../../redact-secrets.js';
import { type ContractBoundary, contractBoundary } from './contract-arguments.js';
import { sendContractRequest } from './contract-call.js';
import { loadContractDocument } from './contract-document.js';
import { type ContractOperation, contractOperations } from './contract-operations.js';
import { contractRequest, OffHostRequest } from './contract-request.js';
import { type ContractSettings, contractSettings, globMatches } from './contract-settings.js';

/** What building a contract app needs from the app loader. */
export interface ContractAppInput {
  readonly name: string;
  readonly folder: string;
  /** The manifest as written. */
  readonly manifest: JsonObject;
  /** The config's secrets (name → value), for the app's auth. */
  readonly secrets: ReadonlyMap<string, string>;
}

/** A contract app's tools and behaviour; the app loader wraps it as it wraps any app. */
export type ContractBehaviour = Pick<ToolProvider, 'listTools' | 'invoke' | 'preflight' | 'loadProblems'>;

/**
 * The URL requests go to: the manifest's `baseUrl`, else the document's first server (its variables at their
 * defaults; a relative one read from the document's URL when it was fetched).
 */
export function contractBaseUrl(settings: ContractSettings, document: JsonObject): URL {
  if (settings.baseUrl !== undefined) return new URL(settings.baseUrl);
  const server = Array.isArray(document.servers) ? document.servers[0] : undefined;
  if (!isPlainObject(server) || typeof server.url !== 'string') {
    throw new Error('the document names no server; give the manifest a "baseUrl"');
  }
  const variables = isPlainObject(server.variables) ? server.variables : {};
  const url = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isPlainObject(variable) && typeof variable.default === 'string' ? variable.default : whole;
  });
  if (/^https?:\/\//.test(url)) return new URL(url);
  // OpenAPI reads a relative server URL from where the document is served, when it is served.
  if (/^https?:\/\//.test(settings.openapi) && !/^[a-z][a-z0-9+.-]*:/i.test(url))
    return new URL(url, settings.openapi);
  throw new Error(
    `the document's server ${server.url} is not an absolute URL; give the manifest a "baseUrl"`,
  );
}

interface Built {
  readonly operation: ContractOperation;
  readonly definition: ToolDefinition;
  readonly boundary: ContractBoundary;
}

/** The tool an operation becomes: read-only for GET and HEAD, destructive for DELETE, asking otherwise. */
export function operationDefinition(operation: ContractOperation): ToolDefinition {
  const reads = operation.method === 'GET' || operation.method === 'HEAD';
  return {
    name: operation.name,
    description: operation.description,
    parameters: operation.parameters,
    risk: reads ? 'safe' : operation.method === 'DELETE' ? 'destructive' : 'caution',
    requiresApproval: !reads,
    ...(reads ? { readOnly: true } : {}),
    keySpellings: true,
  };
}

/**
 * An OpenAPI document as an app's tools: one per selected operation, each call read and checked at the
 * boundary before anything is sent, then sent to the base URL with the app's auth. Throws (a sentence)
 * when the manifest or the document cannot work.
 */
export async function contractApp(input: ContractAppInput): Promise<ContractBehaviour> {
  const settings = contractSettings(input.manifest);
  const document = await loadContractDocument(settings, input.folder);
  const baseUrl = contractBaseUrl(settings, document);
  const tools = new Map<string, Built>();
  const problems: string[] = [];
  const configHeaders = new Set(Object.keys(settings.headers).map((h) => h.toLowerCase()));
  if (settings.auth?.type === 'apiKey' && settings.auth.in === 'header')
    configHeaders.add(settings.auth.name.toLowerCase());
  if (settings.idempotencyHeader !== undefined) configHeaders.add(settings.idempotencyHeader.toLowerCase());
  for (const operation of contractOperations(document, configHeaders)) {
    if (settings.operations !== undefined && !settings.operations.some((g) => globMatches(g, operation.name)))
      continue;
    if (tools.has(operation.name)) {
      problems.push(
        `app "${input.name}" left out ${operation.method} ${operation.path}: another operation is also named ${operation.name}.`,
      );
      continue;
    }
    const definition = operationDefinition(operation);
    tools.set(operation.name, {
      operation,
      definition,
      boundary: contractBoundary(operation.name, operation.parameters),
    });
  }
  if (tools.size === 0) throw new Error('no operation of its document is selected; check "operations"');
  const refusal = (built: Built, args: JsonObject): ToolResult | undefined => {
    const reading = built.boundary.read(args);
    return reading.ok ? undefined : invalidArgumentsResult(built.operation.name, reading.problems);
  };
  const unknown = (name: string): ToolResult => ({
    content: `${name} is not one of app "${input.name}"'s operations.`,
    isError: true,
    notRun: 'refused_by_tool',
  });
  return {
    listTools: async () => [...tools.values()].map((t) => t.definition),
    loadProblems: () => problems,
    async preflight(name, args) {
      const built = tools.get(name);
      if (built === undefined) return unknown(name);
      return refusal(built, args);
    },
    async invoke(name: string, args: JsonObject, ctx: ToolContext) {
      const built = tools.get(name);
      if (built === undefined) return unknown(name);
      // Checked again: a call may come without its preflight.
      const reading = built.boundary.read(args);
      if (!reading.ok) return invalidArgumentsResult(name, reading.problems);
      let request: ReturnType<typeof contractRequest>;
      try {
        request = contractRequest(built.operation, reading.args, baseUrl);
      } catch (error) {
        if (!(error instanceof OffHostRequest)) throw error;
        return {
          content: `${name} was not run: its request would leave ${baseUrl.host}.`,
          isError: true,
          notRun: 'refused_by_tool',
        };
      }
      const result = await sendContractRequest(request, {
        tool: name,
        ...(settings.auth === undefined ? {} : { auth: settings.auth }),
        headers: settings.headers,
        secrets: input.secrets,
        timeoutMs: settings.timeoutMs,
        maxResponseBytes: settings.maxResponseBytes,
        signal: ctx.signal,
        ...(settings.idempotencyHeader === undefined
          ? {}
          : { idempotencyHeader: settings.idempotencyHeader }),
        ...(ctx.resultChars === undefined ? {} : { resultChars: ctx.resultChars }),
      });
      // An API that echoes a token must not show it (the runtime hides the config's secrets too).
      return { ...result, content: redactSecrets(result.content, input.secrets) };
    },
  };
}
