import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { boundedBody } from './bounded-body.js';

/** Most bytes of one source (the document or a file a `$ref` names); GitHub's whole API is ~12 MB. */
export const MAX_SOURCE_BYTES = 64_000_000;
/** Deadline of one fetched source. */
const SOURCE_TIMEOUT_MS = 20_000;
/** Redirects followed for one fetched source (each to a place it may come from). */
const MOST_REDIRECTS = 3;

/** Where a contract's sources may come from. */
export interface SourceRules {
  /** The app folder: a document in it may refer to files in it, and nowhere else on disk. */
  readonly folder: string;
  /** The document's URL when it is fetched (its origin may be fetched from; no file may be read). */
  readonly documentUrl?: URL;
  /** Further hosts (`host` or `host:port`) a `$ref` may be fetched from. */
  readonly refHosts: readonly string[];
}

/** A source refused by the rules, with the sentence saying why and what to do. */
export class RefusedSource extends Error {}

/** What the parser reads through: one resolver for files and one for URLs, both held to the rules. */
export interface ContractSources {
  /** The parser's `resolve` option. */
  readonly resolve: Record<string, unknown>;
  /** Why a source failed, when one of these resolvers refused it (the parser's own error words it less well). */
  refusal(): string | undefined;
}

/**
 * Resolvers that read a contract's document and what its `$ref`s name only where `rules` allow: files inside
 * the app folder (after symbolic links are followed), URLs on the document's origin or a listed host, each
 * within a size bound and a deadline, a redirect followed only to a place allowed too. Each source is read
 * once per load (the parser may ask again).
 */
export function contractSources(rules: SourceRules): ContractSources {
  const read = new Map<string, Promise<Buffer>>();
  let refused: string | undefined;
  const once = (key: string, load: () => Promise<Buffer>): Promise<Buffer> => {
    let held = read.get(key);
    if (held === undefined) {
      held = load().catch((error: unknown) => {
        if (error instanceof RefusedSource) refused ??= error.message;
        throw error;
      });
      read.set(key, held);
    }
    return held;
  };
  const file = {
    order: 100,
    canRead: (source: { url: string }) => !/^https?:/i.test(source.url),
    read: (source: { url: string }) => once(source.url, () => readLocal(source.url, rules)),
  };
  const http = {
    order: 200,
    timeout: SOURCE_TIMEOUT_MS,
    redirects: 0,
    canRead: (source: { url: string }) => /^https?:/i.test(source.url),
    read: (source: { url: string }) => once(source.url, () => fetchAllowed(new URL(source.url), rules, 0)),
  };
  return { resolve: { file, http, external: true }, refusal: () => refused };
}

function localPath(url: string): string {
  if (/^file:/i.test(url)) return fileURLToPath(url);
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

async function readLocal(url: string, rules: SourceRules): Promise<Buffer> {
  const path = localPath(url).replace(/[/\\]+$/, '');
  if (rules.documentUrl !== undefined) {
    throw new RefusedSource(
      `its document, fetched from ${rules.documentUrl.href}, refers to the local file ${path}; a fetched document may refer to URLs only`,
    );
  }
  const [folder, real] = await Promise.all([realpath(rules.folder), realpath(path).catch(() => path)]);
  const inside = relative(folder, real);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    throw new RefusedSource(
      `its document refers to ${path}, outside the app folder; keep every file a $ref names inside it`,
    );
  }
  const size = await stat(real).then(
    (found) => found.size,
    () => {
      throw new RefusedSource(`${inside === '' ? path : inside} does not exist in the app folder ${folder}`);
    },
  );
  if (size > MAX_SOURCE_BYTES) {
    throw new RefusedSource(`${inside} holds ${size} bytes, more than the ${MAX_SOURCE_BYTES} a source may`);
  }
  return readFile(real);
}

function allowed(url: URL, rules: SourceRules): boolean {
  if (rules.documentUrl !== undefined && url.origin === rules.documentUrl.origin) return true;
  return rules.refHosts.some((h) => h.toLowerCase() === (h.includes(':') ? url.host : url.hostname));
}

async function fetchAllowed(url: URL, rules: SourceRules, redirects: number): Promise<Buffer> {
  if (!allowed(url, rules)) {
    const own = rules.documentUrl === undefined ? '' : `${rules.documentUrl.host} and `;
    throw new RefusedSource(
      `its document refers to ${url.href}; $refs are fetched only from ${own}the hosts in "refHosts"; add ${url.host} there if it is to be trusted`,
    );
  }
  let response: Response;
  try {
    response = await fetch(url, {
      redirect: 'manual',
      headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' },
      signal: AbortSignal.timeout(SOURCE_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : '';
    throw new RefusedSource(`${url.href} could not be fetched (${cause || (error as Error).message})`);
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (location === null || redirects >= MOST_REDIRECTS) {
      throw new RefusedSource(`${url.href} answered HTTP ${response.status} without a place to follow`);
    }
    return fetchAllowed(new URL(location, url), rules, redirects + 1);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new RefusedSource(`${url.href} answered HTTP ${response.status}`);
  }
  const body = await boundedBody(response, MAX_SOURCE_BYTES);
  if (!body.whole)
    throw new RefusedSource(`${url.href} is larger than the ${MAX_SOURCE_BYTES} bytes a source may hold`);
  return body.bytes;
}
