/** `{{secret:NAME}}`: how a command refers to a stored secret without ever holding its value. */
const PLACEHOLDER = /\{\{\s*secret:([^{}\s]*)\s*\}\}/g;

/** The secret names a command's placeholders refer to, in order of first use. */
export function placeholderNames(command: string): string[] {
  return [...new Set([...command.matchAll(PLACEHOLDER)].map((m) => m[1] as string))];
}

/** A command with its placeholders turned into references to environment variables, and those variables. */
export interface FilledCommand {
  readonly command: string;
  readonly env: Record<string, string>;
}

type Quote = 'none' | 'single' | 'double' | 'ansi';

interface HereDoc {
  readonly delimiter: string;
  /** A quoted delimiter (`<<'EOF'`) leaves the body as written: nothing in it expands. */
  readonly literal: boolean;
  readonly stripTabs: boolean;
}

/** How to put variable `name` where the scanner stands, so bash expands it to the value and nothing else. */
function reference(name: string, quote: Quote, body: HereDoc | undefined, value: string): string {
  if (body !== undefined) return body.literal ? value : `\${${name}}`;
  switch (quote) {
    case 'single':
      return `'"\${${name}}"'`;
    case 'ansi':
      return `'"\${${name}}"$'`;
    case 'double':
      return `\${${name}}`;
    default:
      return `"\${${name}}"`;
  }
}

const HEREDOC_START = /^<<(-?)\s*(?:'([^']*)'|"([^"]*)"|\\?([A-Za-z0-9_]+))/;

/**
 * Fills a command's `{{secret:NAME}}` placeholders at run time: each becomes a reference to an environment
 * variable holding the value, written to suit where it stands (unquoted, in '…', "…", $'…' or a here-document
 * body), so a value's quotes or `$` can never change what the command does. Names nothing fills are left as
 * written (the bash tool refuses those before running anything).
 */
export function fillSecrets(command: string, secrets: ReadonlyMap<string, string>): FilledCommand {
  const variables = new Map<string, string>();
  const env: Record<string, string> = {};
  const variableFor = (name: string, value: string): string => {
    let variable = variables.get(name);
    if (variable === undefined) {
      variable = `TOOLSEAM_SECRET_${variables.size + 1}`;
      variables.set(name, variable);
      env[variable] = value;
    }
    return variable;
  };
  let out = '';
  let quote: Quote = 'none';
  const pending: HereDoc[] = [];
  let body: HereDoc | undefined;
  let lineStart = true;
  for (let i = 0; i < command.length; ) {
    if (body !== undefined && lineStart) {
      const end = command.indexOf('\n', i);
      const line = command.slice(i, end === -1 ? command.length : end);
      const bare = body.stripTabs ? line.replace(/^\t+/, '') : line;
      if (bare === body.delimiter) {
        out += line;
        i += line.length;
        body = pending.shift();
        lineStart = false;
        continue;
      }
    }
    PLACEHOLDER.lastIndex = i;
    const found = PLACEHOLDER.exec(command);
    if (found !== null && found.index === i) {
      const name = found[1] as string;
      const value = secrets.get(name);
      out += value === undefined ? found[0] : reference(variableFor(name, value), quote, body, value);
      i += found[0].length;
      lineStart = false;
      continue;
    }
    const ch = command[i] as string;
    out += ch;
    i++;
    lineStart = ch === '\n';
    if (body !== undefined) continue;
    if (ch === '\\' && quote !== 'single' && i < command.length) {
      out += command[i];
      i++;
    } else if (quote === 'none') {
      if (ch === "'") quote = 'single';
      else if (ch === '"') quote = 'double';
      else if (ch === '$' && command[i] === "'") {
        out += "'";
        i++;
        quote = 'ansi';
      } else if (ch === '<' && command[i] === '<' && command[i + 1] !== '<') {
        const heredoc = HEREDOC_START.exec(command.slice(i - 1));
        if (heredoc !== null) {
          const delimiter = (heredoc[2] ?? heredoc[3] ?? heredoc[4]) as string;
          const literal = heredoc[2] !== undefined || heredoc[3] !== undefined || heredoc[0].includes('\\');
          pending.push({ delimiter, literal, stripTabs: heredoc[1] === '-' });
          out += heredoc[0].slice(1);
          i += heredoc[0].length - 1;
        }
      } else if (ch === '\n' && pending.length > 0) body = pending.shift();
    } else if ((quote === 'single' || quote === 'ansi') && ch === "'") quote = 'none';
    else if (quote === 'double' && ch === '"') quote = 'none';
  }
  return { command: out, env };
}
