import { isPlainObject } from '../../core/json.js';
import { resolveLocalRef } from './schema-pointer.js';

/**
 * A declared schema node reduced to what the argument checks read, in one uniform shape (so walking it stays
 * fast whatever keywords the schema's author used). Recursive schemas give cyclic plans.
 */
export interface SchemaPlan {
  ref: SchemaPlan | undefined;
  allOf: SchemaPlan[];
  types: readonly string[] | undefined;
  required: readonly string[] | undefined;
  properties: Array<readonly [string, SchemaPlan]> | undefined;
  positional: SchemaPlan[];
  rest: SchemaPlan | undefined;
}

const plans = new WeakMap<object, SchemaPlan>();

/** The plan of a readable root schema, built once per schema object. */
export function schemaPlan(root: Record<string, unknown>): SchemaPlan {
  const known = plans.get(root);
  if (known) return known;
  const plan = build(root, root, new Map())!;
  plans.set(root, plan);
  return plan;
}

function build(node: unknown, root: object, memo: Map<object, SchemaPlan>): SchemaPlan | undefined {
  if (!isPlainObject(node)) return undefined;
  const known = memo.get(node);
  if (known) return known;
  const plan = emptyPlan();
  memo.set(node, plan);
  const sub = (n: unknown): SchemaPlan | undefined => build(n, root, memo);
  if (typeof node.$ref === 'string') plan.ref = sub(resolveLocalRef(root, node.$ref));
  if (Array.isArray(node.allOf)) plan.allOf = node.allOf.map(sub).filter((p) => p !== undefined);
  if (typeof node.type === 'string') plan.types = [node.type];
  else if (Array.isArray(node.type)) plan.types = node.type as string[];
  // OpenAPI's `nullable: true` (honoured by Ajv, and by the seam, which fills a left-out one with null).
  if (node.nullable === true && plan.types !== undefined && !plan.types.includes('null'))
    plan.types = [...plan.types, 'null'];
  if (Array.isArray(node.required)) plan.required = node.required as string[];
  if (isPlainObject(node.properties)) {
    plan.properties = [];
    for (const [key, value] of Object.entries(node.properties)) {
      const p = sub(value);
      if (p) plan.properties.push([key, p]);
    }
  }
  const tuple = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : Array.isArray(node.items)
      ? node.items
      : [];
  plan.positional = tuple.map((n) => sub(n) ?? EMPTY);
  if (!Array.isArray(node.items)) plan.rest = sub(node.items);
  return plan;
}

function emptyPlan(): SchemaPlan {
  return {
    ref: undefined,
    allOf: [],
    types: undefined,
    required: undefined,
    properties: undefined,
    positional: [],
    rest: undefined,
  };
}

const EMPTY = emptyPlan();
