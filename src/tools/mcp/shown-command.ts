/** A flag or setting whose value is a credential (`--api-key`, `GITHUB_TOKEN=…`, `--password`). */
const SECRET_NAME = /(?:key|token|secret|passw(?:or)?d|auth|credential|bearer)/i;

/** A value that looks like a credential by itself: a known token prefix, or a long run of letters and digits. */
const SECRET_VALUE =
  /^(?:sk-|ghp_|gho_|github_pat_|xox[abpr]-|glpat-|AKIA|AIza|eyJ)|^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_+=]{32,}$/;

const HIDDEN = '***';

/**
 * A server's command line as messages may show it: the value of every flag or `NAME=value` setting
 * named like a credential, and every argument that looks like one, replaced by `***` (start errors
 * reach logs, the Tools page and the model).
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
      shown.push(arg);
    }
    hideNext = arg.startsWith('-') && setting === null && SECRET_NAME.test(arg);
  }
  return shown.join(' ');
}
