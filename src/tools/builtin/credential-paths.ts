import { sep } from 'node:path';
import { isWithin } from './real-path.js';

/** A kind of place where credentials are kept, and how a command mentioning it is recognized. */
interface CredentialPlace {
  readonly what: string;
  readonly pattern: RegExp;
}

// A path part starts after one of these (or at the start); it ends before one of the `END` characters.
const START = String.raw`(?:^|[\s'"=:(/<>~])`;
const END = String.raw`(?=$|[\s'";|&)<>])`;
/** A character of a file name as a command or a path writes it (no separator, quote or shell operator). */
const NAME_PART = String.raw`[^\s'"=:(/<>~;|&)]`;

/** Parts of a `.env…` name that make it a template, code or a schema rather than settings. */
const NOT_SECRET_ENV = '(?:example|sample|template|dist|defaults|schema|d|ts|mts|cts|js|mjs|cjs|md)';

/** Where credentials live: read or written by no command the bash tool runs and by no file tool. */
const CREDENTIAL_PLACES: readonly CredentialPlace[] = [
  { what: 'SSH keys', pattern: new RegExp(`${START}\\.ssh(?=$|[\\s'";|&)<>/])`) },
  // A key file's whole name (or a backup of one): `id_rsa.pub`, `id_ed25519-cert.pub` or `id_rsa.ts` are not keys.
  {
    what: 'an SSH private key',
    pattern: new RegExp(
      `\\bid_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?:\\.(?:bak|old|orig|backup|pem|key))?${END}`,
    ),
  },
  { what: 'AWS credentials', pattern: /\.aws\/(?:credentials|sso\/cache)/ },
  { what: 'cloud credentials', pattern: /\.config\/gcloud\b|\.azure\/|credentials\.tfrc\.json/ },
  { what: 'a Kubernetes config', pattern: /\.kube\/config\b/ },
  { what: 'Docker registry logins', pattern: /\.docker\/config\.json/ },
  {
    what: 'a .env file',
    // `.env.local`, `.env.production`; not `.env.example`, nor code or a schema (`.env.d.ts`, `.env.schema.json`).
    pattern: new RegExp(`${START}\\.env(?:\\.(?!${NOT_SECRET_ENV}(?![\\w-]))[\\w-]+)*${END}`),
  },
  { what: 'a direnv file', pattern: new RegExp(`${START}\\.envrc${END}`) },
  {
    what: 'a file of stored logins',
    pattern: new RegExp(`${START}\\.(?:netrc|pgpass|git-credentials|npmrc|pypirc)${END}`),
  },
  { what: 'GitHub CLI logins', pattern: /\.config\/gh\/hosts\.yml/ },
  { what: 'GnuPG keys or a password store', pattern: /\.gnupg\b|\.password-store\b/ },
  {
    what: 'a keychain',
    pattern:
      /\bsecurity\s+(?:find-(?:generic|internet)-password|dump-keychain|export)\b|Library\/Keychains|\.keychain(?:-db)?(?=$|[\s'";|&)<>/])|\bsecret-tool\s+lookup\b|\.local\/share\/keyrings/,
  },
  { what: 'the system password file', pattern: /\/etc\/(?:g?shadow|master\.passwd)\b/ },
  {
    // A certificate's .pem may be public, but one file often holds the private key beside it.
    what: 'a private key or certificate file',
    pattern: new RegExp(`${START}${NAME_PART}*\\.(?:pem|key|p12|pfx)${END}`),
  },
  {
    what: 'a cloud service account key',
    pattern: new RegExp(`${START}service[-_]account${NAME_PART}*\\.json${END}`),
  },
  {
    // Commands typed with a token on their line stay in the history.
    what: 'a shell history',
    pattern: new RegExp(`${START}(?:\\.(?:[\\w-]+_)?history|\\.zhistory|\\.histfile|fish_history)${END}`),
  },
];

/** What a refusal at a credential place tells the model to do instead. */
export const CREDENTIAL_HINT =
  'If the work needs a credential, the person stores it as a secret and a bash command uses {{secret:NAME}}; its value is filled in when the command runs and never shown.';

/** A credential place something reaches: what kind it is, and the text that gave it away. */
export interface CredentialMatch {
  readonly what: string;
  readonly found: string;
}

/** The kind of credential place a command (or a path) reaches, and the text that gave it away, if any. */
export function credentialPlace(command: string): CredentialMatch | undefined {
  for (const place of CREDENTIAL_PLACES) {
    const match = place.pattern.exec(command);
    if (match !== null) return { what: place.what, found: match[0].replace(/^[\s'"=:(/<>~]/, '') };
  }
  return undefined;
}

/** A path's credential place, and the path of that place: the path itself or a folder above it. */
export interface CredentialPathMatch extends CredentialMatch {
  readonly at: string;
}

/** The same patterns, finding every place they match (a path is judged by all its matches). */
const EVERY_MATCH: readonly CredentialPlace[] = CREDENTIAL_PLACES.map(({ what, pattern }) => ({
  what,
  pattern: new RegExp(pattern.source, `${pattern.flags}g`),
}));

/** The workspace folder a path is judged from: the deepest one holding it, else none (''). */
function rootOf(path: string, roots: readonly string[]): string {
  let best = '';
  for (const root of roots) {
    if (isWithin(root, path) && root.length > best.length) best = root;
  }
  return best;
}

/** A place `path` itself is that a part below `root` gives away; the root's own name never counts. */
function placeBelow(path: string, root: string): CredentialMatch | undefined {
  for (const place of EVERY_MATCH) {
    for (const match of path.matchAll(place.pattern)) {
      if (match.index + match[0].length > root.length) {
        return { what: place.what, found: match[0].replace(/^[\s'"=:(/<>~]/, '') };
      }
    }
  }
  return undefined;
}

/**
 * The credential place an entry met while walking a folder is, judged from its workspace folder as
 * `credentialPathPlace` judges it; the folders above it are the walk's to have judged on the way down.
 */
export function credentialEntryPlace(path: string, roots: readonly string[]): CredentialMatch | undefined {
  return placeBelow(path, rootOf(path, roots));
}

/**
 * The file tools' one rule for a path: the credential place it is, or else lies inside (a folder named `.env`
 * keeps what is in it as a `.env` file keeps its lines; the outermost such folder is named), else undefined.
 * It is judged from the workspace folder holding it: a workspace that lies in a folder named `.ssh` or
 * `.gnupg` is not refused for where it lies, while `credentials` in a workspace at `~/.aws` still is.
 */
export function credentialPathPlace(path: string, roots: readonly string[]): CredentialPathMatch | undefined {
  const root = rootOf(path, roots);
  const itself = placeBelow(path, root);
  if (itself !== undefined) return { ...itself, at: path };
  const parts = path.split(sep);
  for (let n = 1; n < parts.length; n++) {
    const at = parts.slice(0, n).join(sep);
    const place = at.length > root.length ? placeBelow(at, root) : undefined;
    if (place !== undefined) return { ...place, at };
  }
  return undefined;
}
