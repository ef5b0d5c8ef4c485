/**
 * Node's parseArgs error as one sentence: ended with a full stop (Node ends most without one), an
 * unknown option without Node's note on passing a positional that starts with a dash, and a flag
 * followed by another flag where its value should be ("argument is ambiguous") told as what it needs.
 */
export function parseArgsSaid(error: unknown): string {
  const message = (error as Error).message;
  const ambiguous = /^Option '([^']+)' argument is ambiguous[\s\S]*use '([^']+)'/.exec(message);
  if (ambiguous) {
    const [, flag, dashed = ''] = ambiguous;
    return `${flag} needs a value, and what follows it is another option; put the value right after ${flag} (one that starts with a dash is written ${dashed.replace('-XYZ', '-VALUE')}).`;
  }
  const code = (error as { code?: unknown }).code;
  const said = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? (message.split('. To specify')[0] ?? '') : message;
  return said.trim().replace(/[.:;,]?$/, '.');
}
