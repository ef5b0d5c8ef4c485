import { isPlainObject } from '../../core/json.js';
import type { GrantScopeRule } from '../../core/tool.js';
import type { Fields } from './field.js';
import { ToolDefinitionError } from './tool-definition-error.js';

/**
 * Which later calls an "always" answer for a defined tool covers:
 * - a list of argument names: calls with the same values for these (the others free; `[]`: any call);
 * - `{ command: name }`: a shell command argument, covered by its program and subcommand;
 * - `{ folderOf: name }`: a path argument, covered for files directly in the same folder.
 * Left out, only a call with exactly the same arguments is covered.
 */
export type GrantScopeOption<K extends string = string> =
  | readonly K[]
  | { readonly command: K }
  | { readonly folderOf: K };

/** The rule a tool's `grantScope` option declares; throws ToolDefinitionError when it names no text field. */
export function grantScopeRule(
  tool: string,
  option: GrantScopeOption | undefined,
  fields: Fields,
): GrantScopeRule | undefined {
  if (option === undefined) return undefined;
  const declared = (name: unknown, text: boolean): string => {
    const spec = typeof name === 'string' && Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (spec === undefined || (text && spec.kind !== 'string')) {
      const what = text ? "one of the tool's text fields" : "one of the tool's fields";
      throw new ToolDefinitionError(
        tool,
        '',
        `grantScope names ${JSON.stringify(name)}, which is not ${what}`,
      );
    }
    return name as string;
  };
  if (Array.isArray(option)) return { kind: 'arguments', names: option.map((n) => declared(n, false)) };
  if (isPlainObject(option) && 'command' in option && Object.keys(option).length === 1) {
    return { kind: 'command', argument: declared(option.command, true) };
  }
  if (isPlainObject(option) && 'folderOf' in option && Object.keys(option).length === 1) {
    return { kind: 'folder', argument: declared(option.folderOf, true) };
  }
  throw new ToolDefinitionError(
    tool,
    '',
    'grantScope is a list of argument names, { command: name } or { folderOf: name }',
  );
}
