/** Where a command word stands: at the start, after a separator, or after sudo (an optional path before it). */
export const AT_COMMAND = String.raw`(?:^|[;&|(\n\`]|\bsudo\s)\s*(?:\S*/)?`;

/** Commands that change files (or may: interpreters and editors can do anything). */
export const CHANGES_FILES =
  /(?:^|[\s;&|(`])(?:tee|mv|cp|rm|truncate|chmod|chown|ln|dd|install|rsync|touch|vi|vim|nvim|nano|emacs|ed|ex|code|python3?|node|deno|bun|ruby|perl|php|sh|bash|zsh|sed\s+(?:-\S+\s+)*-[a-zA-Z]*i\S*|git\s+(?:checkout|restore|reset|stash|apply|mv|rm))(?=$|[\s;&|)])/;

/** The targets of a command's output redirections (`> file`, `>> file`, `&> file`). */
export function redirectTargets(command: string): string[] {
  return [...command.matchAll(/(?:^|[^<>&\d])\d?&?>>?\|?\s*(['"]?)([^\s'";&|<>()]+)\1/g)].map(
    (m) => m[2] as string,
  );
}
