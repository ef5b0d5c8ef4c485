/** A flag or setting whose value is a credential (`--api-key`, `GITHUB_TOKEN=…`, `--password`). */
const SECRET_NAME = /(?:key|token|secret|passw(?:or)?d|auth|credential|bearer)/i;

/** A value that looks like a credential by itself: a known token prefix, or a long run of letters and digits. */
const SECRET_VALUE =
  /^(?:sk-|ghp_|gho_|github_pat_|xox[abpr]-|glpat-|AKIA|AIza|eyJ)|^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_+=]{32,}$/;

/** True for a name a credential goes by (`api_key`, `X-Auth-Token`, `password`). */
export function namedLikeSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** True for a value that looks like a credential by itself (a known token prefix, a long key). */
export function looksLikeSecret(value: string): boolean {
  return SECRET_VALUE.test(value);
}

const HIDDEN = '***';

/** The password of a URL's `user:password@`. */
const URL_PASSWORD = /(\/\/[^/:@\s]*:)[^/@\s]+@/g;

/** A query parameter named like a credential (`?api_key=…`, `&access_token=…`, `&sig=…`). */
const SECRET_QUERY =
  /([?&][^=&#\s]*(?:key|token|secret|passw(?:or)?d|auth|credential|sig(?:nature)?)[^=&#\s]*=)[^&#\s]*/gi;

/** A header given as an argument whose name is a credential's (`Authorization: Bearer …`, `X-Api-Key: …`). */
const SECRET_HEADER = /^([\w-]*(?:key|token|secret|passw(?:or)?d|auth|credential|cookie)[\w-]*\s*:).*$/i;

/** A bearer or basic credential anywhere in an argument. */
const SCHEME_CREDENTIAL = /\b(Bearer|Basic|Token)\s+[^\s,;"']+/gi;

/** The argument with every credential inside it (URL password, query value, header value) hidden. */
function maskInside(arg: string): string {
  if (SECRET_HEADER.test(arg)) return arg.replace(SECRET_HEADER, `$1 ${HIDDEN}`);
  return arg
    .replace(URL_PASSWORD, `$1${HIDDEN}@`)
    .replace(SECRET_QUERY, `$1${HIDDEN}`)
    .replace(SCHEME_CREDENTIAL, `$1 ${HIDDEN}`);
}

/**
 * A server's command line as messages may show it: the value of every flag or `NAME=value` setting
 * named like a credential, every argument that looks like one, and credentials inside an argument
 * (a URL's password, a query value named like a key, a header's value) replaced by `***` (start
 * errors reach logs, the Tools page and the model).
 */
export function shownCommand(command: string, args: readonly string[]): string {
  const shown: string[] = [command];
  let hideNext = false;
  for (const arg of args) {
    if (hideNext && !arg.startsWith('-')) {
      shown.push(HIDDEN);
      hideNext = false;
      continue;
    }
    const setting = /^(-{0,2}[\w.-]+)=(.*)$/.exec(arg);
    if (setting !== null && SECRET_NAME.test(setting[1] as string)) {
      shown.push(`${setting[1]}=${HIDDEN}`);
    } else if (SECRET_VALUE.test(arg)) {
      shown.push(HIDDEN);
    } else {
      shown.push(maskInside(arg));
    }
    hideNext = arg.startsWith('-') && setting === null && SECRET_NAME.test(arg);
  }
  return shown.join(' ');
}
