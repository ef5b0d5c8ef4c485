import type { JsonType } from './profile.js';

/** One step into a call's arguments: a named property, or every element of a list. */
export type ArgumentStep =
  | { readonly kind: 'property'; readonly name: string }
  | { readonly kind: 'element' };

/** The step standing for every element of a list. */
export const EVERY_ELEMENT: ArgumentStep = Object.freeze({ kind: 'element' });

/**
 * An argument the offered schema carries as JSON text because its declared schema has no portable
 * form (a free-form object, a map, an untyped value, a list without `items`, a recursion point).
 * The runtime decodes the text back (see `decodeLiftedArguments`) before checking and invoking.
 */
export interface LiftedArgument {
  /** Where the text sits in a call's arguments. */
  readonly steps: readonly ArgumentStep[];
  /** The same place for people, e.g. `options`, `steps[].config`, `["odd key"]`. */
  readonly path: string;
  /** The JSON types the declared schema accepts there; `undefined` means any value. */
  readonly takes: readonly JsonType[] | undefined;
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** Renders argument steps for people; `indexes` (in order) replace `[]` with real element positions. */
export function renderArgumentPath(steps: readonly ArgumentStep[], indexes: readonly number[] = []): string {
  let text = '';
  let element = 0;
  for (let i = 0; i < steps.length; i += 1) {
    const step = steps[i] as ArgumentStep;
    if (step.kind === 'element') {
      const index = indexes[element];
      element += 1;
      text += index === undefined ? '[]' : `[${index}]`;
    } else if (PLAIN_KEY.test(step.name)) {
      text += text === '' ? step.name : `.${step.name}`;
    } else {
      text += `[${JSON.stringify(step.name)}]`;
    }
  }
  return text;
}

/** The rendered path `relative` (rendered on its own) placed after the rendered path `base`. */
export function joinArgumentPaths(base: string, relative: string): string {
  if (base === '') return relative;
  if (relative === '') return base;
  // A rendered path starts with `[` unless its first step is a plain property name.
  return relative.startsWith('[') ? base + relative : `${base}.${relative}`;
}
