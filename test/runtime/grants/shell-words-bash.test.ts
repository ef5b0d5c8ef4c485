import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readShellCommand } from '../../../src/runtime/grants/shell-words.js';

/** Characters that matter to bash's parser, and two letters that name functions reporting that they ran. */
const ALPHABET = ['a', 'b', 'x', '-', '=', ' ', '\t', "'", '"', '\\', '$', '(', ')', ';', '&', '|', '<', '>'];
const MORE = ['`', '{', '}', '*', '~', '#', '!', '\n', ',', '/', '.', '[', ']', '?', ':', '%', '@', '^'];
const CHARS = [...ALPHABET, ...MORE];
/** Mostly letters, spaces, quotes and escapes: commands that often read as plain, quoted in every way. */
const QUOTING = ['a', 'b', 'x', ' ', ' ', "'", "'", '"', '"', '\\', '\\', '$', '=', ';', '#', '`', '\t'];

/** A fixed pseudo-random sequence, so a failure names a case that comes back on every run. */
function randomCommands(count: number, seed: number, chars: readonly string[], longest: number): string[] {
  let state = seed;
  const next = (n: number): number => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % n;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + next(longest) }, () => chars[next(chars.length)] as string).join(''),
  );
}

/**
 * Runs each command in one bash as `f <command>`, where f prints how many words it got and the words;
 * functions `a` and `b` print that they ran, so a second command bash found is seen.
 */
function bashWords(commands: readonly string[]): string[][] {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-words-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const script = [
    `f() { printf '%s\\0' "$#" "$@"; }`,
    `a() { printf 'RAN\\0'; }`,
    `b() { printf 'RAN\\0'; }`,
    `while IFS= read -r -d '' c; do printf 'BEGIN\\0'; eval "f $c" </dev/null 2>/dev/null; printf 'END\\0'; done`,
  ].join('\n');
  const ran = spawnSync('bash', ['--norc', '--noprofile', '-c', script], {
    cwd: dir,
    input: commands.map((c) => `${c}\0`).join(''),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const fields = ran.stdout.split('\0');
  const out: string[][] = [];
  let current: string[] | undefined;
  for (const field of fields) {
    if (field === 'BEGIN') current = [];
    else if (field === 'END') {
      out.push(current ?? []);
      current = undefined;
    } else current?.push(field);
  }
  return out;
}

describe('the command reader agrees with bash', () => {
  it('on every command it reads as one plain command: the same words, and nothing else runs', () => {
    const fuzz = [...randomCommands(4000, 20_250_611, CHARS, 14), ...randomCommands(4000, 7, QUOTING, 20)];
    const commands = fuzz.filter((c) => {
      const reading = readShellCommand(c);
      return reading.plain && reading.words.length > 0;
    });
    expect(commands.length).toBeGreaterThan(1000);
    const seen = bashWords(commands);
    expect(seen).toHaveLength(commands.length);
    commands.forEach((command, i) => {
      const reading = readShellCommand(command);
      if (!reading.plain) return;
      const got = seen[i] ?? [];
      const count = Number(got[0]);
      // f ran exactly once and no other command did.
      expect({ command, ran: got.slice(1 + count) }).toEqual({ command, ran: [] });
      if (reading.words.every((w) => w.literal)) {
        expect({ command, words: got.slice(1) }).toEqual({
          command,
          words: reading.words.map((w) => w.text),
        });
      }
    });
  });
});
