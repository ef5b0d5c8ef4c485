import { isAbsolute, relative, resolve } from 'node:path';
import type { JsonObject } from '../../../core/json.js';
import { isPlainObject } from '../../../core/json.js';
import { openApiLine, pathProblems, problemList, schemaProblems } from './contract-document-check.js';
import type { ContractSettings } from './contract-settings.js';
import { contractSources } from './contract-sources.js';

/** Why the parser failed, as one clause (its messages end with a full stop; the load error adds its own). */
function failure(sources: { refusal(): string | undefined }, error: unknown): string {
  return sources.refusal() ?? String((error as Error).message ?? error).replace(/[.\s]+$/, '');
}

/** Whether a `$ref` anywhere in `node` names another file or URL. */
function refersOut(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(refersOut);
  if (!isPlainObject(node)) return false;
  if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) return true;
  return Object.values(node).some(refersOut);
}

/**
 * The dereferenced document a manifest names (a file inside the app folder, or an http(s) URL). The
 * parser reads it, gathers what its `$ref`s name from other files into it (only from the app folder, the
 * document's origin and the hosts in `refHosts`), and follows every `$ref`. Before the `$ref`s are
 * followed it is checked against the OpenAPI schema of its version (compiled once per process) and its
 * paths against their parameters, unless the manifest says `"validate": false`. Throws a sentence naming
 * what is wrong and where.
 */
export async function loadContractDocument(settings: ContractSettings, folder: string): Promise<JsonObject> {
  const fetched = /^https?:\/\//.test(settings.openapi);
  const where = fetched ? settings.openapi : resolve(folder, settings.openapi);
  if (!fetched) {
    const inside = relative(folder, where);
    if (inside.startsWith('..') || isAbsolute(inside)) {
      throw new Error(
        `"openapi" ${JSON.stringify(settings.openapi)} points outside the app folder; keep it inside`,
      );
    }
  }
  // Loaded only here, so a runtime without contract apps never loads the parser.
  const parser = await import('@readme/openapi-parser');
  const sources = contractSources({
    folder,
    refHosts: settings.refHosts,
    ...(fetched ? { documentUrl: new URL(where) } : {}),
  });
  const options = { resolve: sources.resolve } as Parameters<typeof parser.parse>[1];
  const named = `its OpenAPI document ${settings.openapi}`;
  let raw: JsonObject;
  try {
    raw = (await parser.parse(where, options)) as unknown as JsonObject;
    // Other files' parts are gathered in, so the schema check sees them too; a lone file skips the walk.
    if (refersOut(raw)) raw = (await parser.bundle(where, options)) as unknown as JsonObject;
  } catch (error) {
    throw new Error(`${named} could not be read: ${failure(sources, error)}`);
  }
  if (!isPlainObject(raw)) throw new Error(`${named} is not an object`);
  const line = openApiLine(raw);
  if (line === undefined) {
    const said =
      typeof raw.openapi === 'string' ? `says "openapi": "${raw.openapi}"` : 'has no "openapi" version';
    throw new Error(`${named} ${said}; only OpenAPI 3.0 and 3.1 documents become tools`);
  }
  if (settings.validate) {
    const problems = schemaProblems(raw, line);
    if (problems.length > 0) throw new Error(`${named} is not valid: ${problemList(problems)}`);
  }
  let document: JsonObject;
  try {
    document = (await parser.dereference(raw as never, options)) as unknown as JsonObject;
  } catch (error) {
    throw new Error(`${named} could not be read: ${failure(sources, error)}`);
  }
  if (settings.validate) {
    const problems = pathProblems(document);
    if (problems.length > 0) throw new Error(`${named} is not valid: ${problemList(problems)}`);
  }
  return document;
}
