/**
 * `argv` with `--NAME -1` written as `--NAME=-1` for each option in `names` (options that take a
 * number): Node's parseArgs takes a value starting with a dash for another flag and stops with "argument
 * is ambiguous", so a negative number never reached the command's own check and its message.
 */
export function negativeValuesJoined(argv: readonly string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--') return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    if (names.some((name) => arg === `--${name}`) && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i += 1;
    } else out.push(arg);
  }
  return out;
}
