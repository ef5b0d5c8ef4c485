import { isAbsolute } from 'node:path';
import { isPlainObject, type JsonObject } from './json.js';

/**
 * What a standing "always" grant covers, worked out from the call the person is asked about and shown
 * to them before they answer; stored with the grant and checked on every later call of its tool.
 * - `command`: a shell command whose leading words are exactly `words` (program and subcommand), with any
 *   further arguments, and nothing that chains, redirects or substitutes;
 * - `exact-command`: this exact command text and nothing else;
 * - `folder`: a file directly in `folder` (an absolute path, links resolved), not in its subfolders;
 * - `arguments`: these values for the arguments the tool declares as its scope (null: left out), any
 *   others free;
 * - `exact-arguments`: exactly the same arguments, no more and no fewer (kept as the call's digest).
 */
export type GrantScope =
  | { readonly kind: 'command'; readonly words: readonly string[]; readonly summary: string }
  | {
      readonly kind: 'exact-command';
      readonly command: string;
      readonly summary: string;
      /** Why the grant covers nothing wider (the command chains others, runs another program…). */
      readonly narrowed: string;
    }
  | { readonly kind: 'folder'; readonly folder: string; readonly summary: string }
  | { readonly kind: 'arguments'; readonly values: JsonObject; readonly summary: string }
  | { readonly kind: 'exact-arguments'; readonly digest: string; readonly summary: string };

/** The kinds of grant scope, as stored. */
export const GRANT_SCOPE_KINDS: readonly GrantScope['kind'][] = [
  'command',
  'exact-command',
  'folder',
  'arguments',
  'exact-arguments',
];

/** How far an "always" answer reaches: this session, or every session (for good). */
export type GrantReach = 'session' | 'forever';

/**
 * The one line a person reads about "always" before answering, e.g.
 * "always: run `git status …` (any further arguments) in this session without asking".
 */
export function alwaysLine(scope: GrantScope, reach: GrantReach): string {
  const why = scope.kind === 'exact-command' ? ` (${scope.narrowed})` : '';
  if (reach === 'forever') return `always (every session): ${scope.summary} without asking${why}`;
  return `always: ${scope.summary} in this session without asking${why}`;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** What is wrong with `value` as a grant scope, or undefined when it is one. */
export function grantScopeProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'a grant scope is an object with a kind and a summary';
  if (!isText(value.summary)) return 'a grant scope has a summary: one line saying what it covers';
  switch (value.kind) {
    case 'command':
      return Array.isArray(value.words) && value.words.length > 0 && value.words.every(isText)
        ? undefined
        : 'a command scope names the leading words of the command (words: a list of text)';
    case 'exact-command':
      return isText(value.command) && isText(value.narrowed)
        ? undefined
        : 'an exact-command scope holds the command and why it covers nothing wider (narrowed)';
    case 'folder':
      return isText(value.folder) && isAbsolute(value.folder)
        ? undefined
        : 'a folder scope names an absolute folder';
    case 'arguments':
      return isPlainObject(value.values) ? undefined : 'an arguments scope holds the values it covers';
    case 'exact-arguments':
      return isText(value.digest) ? undefined : "an exact-arguments scope holds the call's digest";
    default:
      return `a grant scope's kind is one of ${GRANT_SCOPE_KINDS.join(', ')}`;
  }
}
