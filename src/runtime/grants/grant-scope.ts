import type { GrantScope } from '../../core/grant-scope.js';
import { isPlainObject, type JsonObject, type JsonValue } from '../../core/json.js';
import { headOf } from '../../core/text-cut.js';
import type { GrantScopeRule, ToolDefinition } from '../../core/tool.js';
import { foldedKey } from '../../tools/arguments/key-spellings.js';
import { writeFolder } from '../../tools/builtin/write-folder.js';
import { callDigest, canonicalJson } from '../calls/call-digest.js';
import { commandScope, commandStartsWith, commandSummary } from './command-scope.js';

/** A call as the grant scopes read it. */
export interface ScopedCall {
  /** The real tool name. */
  readonly tool: string;
  /** The tool's definition as this turn offers it (its `grantScope` and whether it reads any key spelling). */
  readonly definition: ToolDefinition | undefined;
  readonly args: JsonObject;
  /** The workspace folders a path is read against (the first one that exists). */
  readonly workspace: readonly string[];
}

const SHOWN_VALUE = 60;
const SHOWN_ARGUMENTS = 100;

/**
 * A declared argument's value in a call: under its own key, or (for a tool that reads any spelling of
 * its keys) under the one key spelled like it. Undefined when two keys spell it: which one the tool reads
 * is not this code's to guess, so such a call is never covered by its value.
 */
function argumentOf(call: ScopedCall, name: string): { readonly value: JsonValue } | undefined {
  if (call.definition?.keySpellings !== true) return { value: call.args[name] ?? null };
  const folded = foldedKey(name);
  const keys = Object.keys(call.args).filter((key) => foldedKey(key) === folded);
  if (keys.length > 1) return undefined;
  const key = keys[0];
  return { value: key === undefined ? null : (call.args[key] ?? null) };
}

function textOf(call: ScopedCall, name: string): string | undefined {
  const found = argumentOf(call, name);
  return typeof found?.value === 'string' ? found.value : undefined;
}

/**
 * The tool's declared rule when it is well formed. A raw app's definition is plain data nobody checked:
 * anything else counts as no rule, so such a tool's grants cover exactly the same arguments.
 */
function ruleOf(call: ScopedCall): GrantScopeRule | undefined {
  const rule: unknown = call.definition?.grantScope;
  if (!isPlainObject(rule)) return undefined;
  const named = typeof rule.argument === 'string' && rule.argument !== '';
  if ((rule.kind === 'command' || rule.kind === 'folder') && named) return rule as GrantScopeRule;
  const names = rule.names;
  if (rule.kind === 'arguments' && Array.isArray(names) && names.every((n) => typeof n === 'string')) {
    return rule as GrantScopeRule;
  }
  return undefined;
}

/** A value in a summary: JSON, cut short. */
function shortJson(value: unknown, limit: number): string {
  const text = canonicalJson(value);
  return text.length <= limit ? text : `${headOf(text, limit - 1)}…`;
}

/** "Exactly these arguments": the fallback scope of every tool, and of a call a narrower rule cannot read. */
function exactArguments(call: ScopedCall): GrantScope {
  const shown = canonicalJson(call.args);
  const summary =
    shown.length <= SHOWN_ARGUMENTS && !/[\n\r`]/.test(shown)
      ? `run ${call.tool} again with exactly \`${shown}\``
      : `run ${call.tool} again with exactly the arguments shown`;
  return { kind: 'exact-arguments', digest: callDigest(call.tool, call.args), summary };
}

/**
 * The scope "always" would grant for this call, as the person is shown it before answering: by the
 * tool's declared rule (a shell command's program and subcommand, a written file's folder, the named
 * arguments), else exactly these arguments.
 */
export async function offeredScope(call: ScopedCall): Promise<GrantScope> {
  const rule = ruleOf(call);
  if (rule?.kind === 'command') {
    const command = textOf(call, rule.argument);
    if (command !== undefined && command.trim() !== '') {
      const scope = commandScope(command);
      return { ...scope, summary: commandSummary(scope) };
    }
  }
  if (rule?.kind === 'folder') {
    const path = textOf(call, rule.argument);
    const folder = path === undefined ? undefined : await writeFolder(path, call.workspace);
    if (folder !== undefined) {
      const summary = `run ${call.tool} on files directly in \`${folder.shown}\` (not in its subfolders)`;
      return { kind: 'folder', folder: folder.real, summary };
    }
  }
  if (rule?.kind === 'arguments') {
    const values: Record<string, JsonValue> = {};
    const names = [...new Set(rule.names)].sort();
    for (const name of names) {
      const found = argumentOf(call, name);
      if (found === undefined) return exactArguments(call);
      values[name] = JSON.parse(canonicalJson(found.value)) as JsonValue;
    }
    const fixed = names.map((name) => `${name} = ${shortJson(values[name], SHOWN_VALUE)}`).join(', ');
    const summary =
      names.length === 0
        ? `run ${call.tool} with any arguments`
        : `run ${call.tool} with ${fixed} (any other arguments)`;
    return { kind: 'arguments', values, summary };
  }
  return exactArguments(call);
}

/** True when a grant's scope covers this call, read by the tool's rule as it is declared now. */
export async function scopeCovers(scope: GrantScope, call: ScopedCall): Promise<boolean> {
  const rule = ruleOf(call);
  switch (scope.kind) {
    case 'command':
    case 'exact-command': {
      if (rule?.kind !== 'command') return false;
      const command = textOf(call, rule.argument);
      if (command === undefined) return false;
      return scope.kind === 'command'
        ? commandStartsWith(command, scope.words)
        : command.trim() === scope.command;
    }
    case 'folder': {
      if (rule?.kind !== 'folder') return false;
      const path = textOf(call, rule.argument);
      const folder = path === undefined ? undefined : await writeFolder(path, call.workspace);
      return folder?.real === scope.folder;
    }
    case 'arguments':
      if (rule?.kind !== 'arguments') return false;
      return Object.entries(scope.values).every(([name, value]) => {
        const found = argumentOf(call, name);
        return found !== undefined && canonicalJson(found.value) === canonicalJson(value);
      });
    case 'exact-arguments':
      return callDigest(call.tool, call.args) === scope.digest;
  }
}
