import { isPlainObject } from '../../core/json.js';
import type { ToolDefinition } from '../../core/tool.js';
import { resolveLocalRef } from '../arguments/schema-pointer.js';
import type { InProcessTool } from './define-tool.js';
import type { AnyField, Fields } from './field.js';

/** One boolean a tool declares. */
export interface DeclaredBoolean {
  readonly tool: string;
  /** Path inside the arguments: `replace_all`, `steps[].completed`, `groups.*`. */
  readonly path: string;
  /** `tool.path`, the form a census pins. */
  readonly key: string;
  /** `consent` when only the JSON literal true counts (field specs only). */
  readonly kind: 'boolean' | 'consent';
  /** The value an unreadable word reads as (field specs only; undefined: refused naming the field). */
  readonly safe?: boolean;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function fromFields(tool: string, fields: Fields, path: string, out: DeclaredBoolean[]): void {
  for (const [name, spec] of Object.entries(fields)) fromField(tool, spec, join(path, name), out);
}

function fromField(tool: string, spec: AnyField, path: string, out: DeclaredBoolean[]): void {
  if (spec.kind === 'boolean') {
    const safe = spec.safe === undefined ? {} : { safe: spec.safe };
    out.push({ tool, path, key: `${tool}.${path}`, kind: 'boolean', ...safe });
  } else if (spec.kind === 'consent') out.push({ tool, path, key: `${tool}.${path}`, kind: 'consent' });
  else if (spec.kind === 'list') fromField(tool, spec.items, `${path}[]`, out);
  else if (spec.kind === 'object') fromFields(tool, spec.fields, path, out);
}

function fromSchema(
  tool: string,
  root: unknown,
  node: unknown,
  path: string,
  seen: Set<unknown>,
  out: DeclaredBoolean[],
) {
  if (!isPlainObject(node) || seen.has(node) || seen.size > 4000) return;
  seen.add(node);
  const next = (sub: unknown, at: string): void => fromSchema(tool, root, sub, at, seen, out);
  if (typeof node.$ref === 'string') next(resolveLocalRef(root, node.$ref), path);
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('boolean') && path !== '')
    out.push({ tool, path, key: `${tool}.${path}`, kind: 'boolean' });
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = node[key];
    if (Array.isArray(branches)) for (const branch of branches) next(branch, path);
  }
  if (isPlainObject(node.properties)) {
    for (const [name, sub] of Object.entries(node.properties)) next(sub, join(path, name));
  }
  if (isPlainObject(node.additionalProperties)) next(node.additionalProperties, join(path, '*'));
  const items = node.items;
  if (Array.isArray(items)) for (const sub of items) next(sub, `${path}[]`);
  else next(items, `${path}[]`);
  seen.delete(node);
}

function isInProcessTool(tool: InProcessTool | ToolDefinition): tool is InProcessTool {
  return 'fields' in tool && typeof (tool as InProcessTool).read === 'function';
}

/**
 * Every boolean a set of tools declares, sorted by key: from field specs (with consent and safe values) or
 * from a declared JSON schema (through properties, items, unions, maps and local `$ref`s). A census test pins
 * this list, so a tool that starts declaring another boolean fails until someone reads it on purpose.
 */
export function declaredBooleans(tools: Iterable<InProcessTool | ToolDefinition>): DeclaredBoolean[] {
  const out: DeclaredBoolean[] = [];
  for (const tool of tools) {
    if (isInProcessTool(tool)) fromFields(tool.name, tool.fields, '', out);
    else fromSchema(tool.name, tool.parameters, tool.parameters, '', new Set(), out);
  }
  const unique = new Map(out.map((b) => [b.key, b]));
  return [...unique.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
