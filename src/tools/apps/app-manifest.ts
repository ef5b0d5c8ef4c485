import { readFile, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { ToolseamError } from '../../core/errors.js';
import { isPlainObject, type JsonObject } from '../../core/json.js';
import { parseUserJson } from '../../core/read-json-file.js';

/** The file that makes a folder an installed app. */
export const APP_MANIFEST_FILE = 'toolseam-app.json';

/** What an app's `toolseam-app.json` says, with the entry resolved to an absolute path. */
export interface AppManifest {
  /** The app's name: its provider name, its catalog group and the name log lines use. */
  readonly name: string;
  /** What the app is for, in one line (its catalog group's purpose). */
  readonly description: string;
  /** Absolute path of the entry module (a contract app's: its OpenAPI document, a path or a URL). */
  readonly entry: string;
  /** A contract app's manifest as written: its tools come from the OpenAPI document it names. */
  readonly contract?: JsonObject;
  readonly version?: string;
  /** The app's folder. */
  readonly folder: string;
}

/** An app could not be loaded; only its own tools are missing. */
export class AppLoadError extends ToolseamError {
  constructor(
    /** The app's folder. */
    readonly folder: string,
    /** The app's name when the manifest got that far, else the folder's name. */
    readonly app: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('app_load_failed', message, options);
  }
}

/** Reads and checks `<folder>/toolseam-app.json`; throws an AppLoadError saying what to fix. */
export async function readAppManifest(folder: string): Promise<AppManifest> {
  const root = resolve(folder);
  const file = join(root, APP_MANIFEST_FILE);
  const fallbackName = basename(root);
  const fail = (what: string, app = fallbackName, cause?: unknown) =>
    new AppLoadError(root, app, `app in ${root}: ${what}`, cause === undefined ? undefined : { cause });
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const place =
      code === 'ENOENT' || code === 'ENOTDIR' ? await stat(root).catch(() => undefined) : undefined;
    const what =
      code !== 'ENOENT' && code !== 'ENOTDIR'
        ? `${APP_MANIFEST_FILE} could not be read (${(error as Error).message}).`
        : place === undefined
          ? 'the folder does not exist; check the path in the "apps" list of the config.'
          : !place.isDirectory()
            ? 'this is a file, not an app folder; list the folder that holds the app.'
            : `there is no ${APP_MANIFEST_FILE}; an app folder needs one naming the app and its entry module.`;
    throw fail(what, fallbackName, error);
  }
  const parsed = parseUserJson(text);
  if (!parsed.ok) throw fail(`${APP_MANIFEST_FILE} is not valid JSON (${parsed.problem}).`, fallbackName);
  const data = parsed.data;
  if (!isPlainObject(data))
    throw fail(`${APP_MANIFEST_FILE} must hold an object with "name", "description" and "entry".`);
  const name = data.name;
  if (typeof name !== 'string' || name.trim() === '')
    throw fail(`${APP_MANIFEST_FILE} needs a non-blank "name".`);
  if (name.includes('/') || name !== name.trim()) {
    throw fail(`the app name ${JSON.stringify(name)} must not contain "/" or surrounding spaces.`);
  }
  if (typeof data.description !== 'string' || data.description.trim() === '') {
    throw fail(`${APP_MANIFEST_FILE} needs a "description" saying in one line what the app is for.`, name);
  }
  if (data.entry === undefined && typeof data.openapi === 'string' && data.openapi.trim() !== '') {
    const document = data.openapi.trim();
    const entry = /^https?:\/\//.test(document) ? document : resolve(root, document);
    return { name, description: data.description.trim(), entry, folder: root, contract: data as JsonObject };
  }
  if (typeof data.entry !== 'string' || data.entry.trim() === '') {
    throw fail(
      `${APP_MANIFEST_FILE} needs an "entry": the module (relative to the app folder) that exports its tools (or "openapi": an OpenAPI document whose operations become its tools).`,
      name,
    );
  }
  const entry = resolve(root, data.entry);
  const inside = relative(root, entry);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    throw fail(
      `the entry ${JSON.stringify(data.entry)} points outside the app folder; keep it inside.`,
      name,
    );
  }
  const found = await stat(entry).catch(() => undefined);
  if (found?.isDirectory()) {
    const example = inside === '' ? 'index.js' : `${inside.replaceAll('\\', '/')}/index.js`;
    throw fail(
      `the entry ${JSON.stringify(data.entry)} is a folder; name the module file in it (e.g. "${example}").`,
      name,
    );
  }
  if (!found?.isFile()) throw fail(`the entry module ${JSON.stringify(data.entry)} does not exist.`, name);
  const manifest = { name, description: data.description.trim(), entry, folder: root };
  return typeof data.version === 'string' ? { ...manifest, version: data.version } : manifest;
}
