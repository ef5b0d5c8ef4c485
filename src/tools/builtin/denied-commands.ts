import { InputError } from '../../core/errors.js';
import { AT_COMMAND } from './shell-words.js';

/** A command the bash tool never runs, and why. */
export interface DeniedPattern {
  /** What such a command does, or the configured pattern as written. */
  readonly what: string;
  /** True for the configured ones. */
  readonly configured: boolean;
  matches(command: string): boolean;
}

function regexPattern(what: string, pattern: RegExp): DeniedPattern {
  return { what, configured: false, matches: (command) => pattern.test(command) };
}

/** The commands no one wants an assistant to run on their machine. */
const BUILT_IN: readonly DeniedPattern[] = [
  regexPattern(
    'deletes everything under / or the home folder',
    /\brm\s(?=(?:[^;&|\n]*\s)?-(?:[a-zA-Z]*[rR]|-recursive))[^;&|\n]*?\s(?:\/\*?|~\/?\*?|"?\$\{?HOME\}?"?\/?\*?)(?=$|[\s;&|)])/,
  ),
  regexPattern('deletes without protecting /', /--no-preserve-root\b/),
  regexPattern('formats a disk', /\bmkfs(?:\.\w+)?\b|\bwipefs\b/),
  regexPattern(
    'writes over a raw disk',
    /\bof=\/dev\/(?:sd|hd|nvme|disk|mmcblk|vd|xvd)|>\s*\/dev\/(?:sd|hd|nvme|disk|mmcblk|vd|xvd)/,
  ),
  regexPattern('starts a fork bomb', /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/),
  regexPattern(
    'changes the owner or permissions of everything under /',
    /\bch(?:mod|own|grp)\s(?=(?:[^;&|\n]*\s)?-[a-zA-Z]*R)[^;&|\n]*\s\/\*?(?=$|[\s;&|])/,
  ),
  regexPattern(
    'shuts down or restarts the machine',
    new RegExp(`${AT_COMMAND}(?:shutdown|reboot|halt|poweroff)\\b|${AT_COMMAND}init\\s+[06]\\b`),
  ),
];

function collapse(text: string): string {
  return text.replace(/[ \t]+/g, ' ').trim();
}

/**
 * The denied patterns: the built-in ones, then the configured ones. A configured pattern written `/…/flags` is
 * a regular expression; any other is text a command must not contain (runs of spaces count as one). Throws
 * InputError naming a pattern that is not a usable regular expression.
 */
export function deniedPatterns(configured: readonly string[] = []): DeniedPattern[] {
  const extra = configured.map((written): DeniedPattern => {
    const regex = /^\/(.+)\/([a-z]*)$/s.exec(written);
    if (regex !== null) {
      try {
        const pattern = new RegExp(regex[1] as string, (regex[2] as string).replace(/[gy]/g, ''));
        return { what: written, configured: true, matches: (command) => pattern.test(command) };
      } catch (error) {
        throw new InputError(
          `The denied shell pattern ${written} is not a regular expression JavaScript can use (${(error as Error).message}); fix it or write it as plain text.`,
        );
      }
    }
    const text = collapse(written);
    if (text === '')
      throw new InputError('A denied shell pattern is blank; remove it or write what to deny.');
    return { what: written, configured: true, matches: (command) => collapse(command).includes(text) };
  });
  return [...BUILT_IN, ...extra];
}
