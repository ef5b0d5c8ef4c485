import type { JsonObject, JsonValue } from '../../core/json.js';

/** What every field spec may say. `optional` fields may be left out; a `default` makes a field optional too. */
interface CommonOptions {
  /** What the field is for, as the model reads it. */
  readonly description?: string;
  readonly optional?: boolean;
}

/** Options of a text field. */
export interface StringOptions extends CommonOptions {
  readonly maxLength?: number;
  readonly minLength?: number;
  /** The values allowed (an empty string may be one of them; it is not offered). */
  readonly enum?: readonly string[];
  /** A JavaScript pattern the text must match; checked here, never offered (its dialect is not the wire's). */
  readonly pattern?: RegExp;
  /** Removes leading and trailing whitespace before any other check. */
  readonly trim?: boolean;
  readonly default?: string;
}

/** Options of an integer or number field (`min`/`max` are inclusive). */
export interface NumberOptions extends CommonOptions {
  readonly min?: number;
  readonly max?: number;
  readonly default?: number;
}

/** Options of a yes/no field. `safe` is what an absent or unreadable value means. */
export interface BooleanOptions extends CommonOptions {
  readonly safe?: boolean;
  readonly default?: boolean;
}

/** Options of a consent field; a required one passes only `true`, an optional one reads absent as `false`. */
export interface ConsentOptions {
  readonly description?: string;
  readonly optional?: boolean;
}

/** Options of a list field. */
export interface ListOptions extends CommonOptions {
  readonly maxItems?: number;
  readonly minItems?: number;
}

/** Options of a nested object field. */
export type ObjectOptions = CommonOptions;

/** What a free-form value must decode to: anything, an object, or a list. */
export type JsonShape = 'any' | 'object' | 'list';

/** Options of a free-form value carried as JSON text. */
export interface JsonOptions<S extends JsonShape = JsonShape> extends CommonOptions {
  readonly shape?: S;
}

/** The part every field spec has. `present` is true when the handler always receives a value. */
interface FieldCore<P extends boolean> {
  readonly description: string | undefined;
  /** True when a call must give it (not optional, no default). */
  readonly required: boolean;
  readonly present: P;
}

/** A text field. */
export interface StringField<T extends string = string, P extends boolean = boolean> extends FieldCore<P> {
  readonly kind: 'string';
  readonly maxLength: number | undefined;
  readonly minLength: number | undefined;
  readonly enum: readonly T[] | undefined;
  readonly pattern: RegExp | undefined;
  readonly trim: boolean;
  readonly default: T | undefined;
}

/** A whole-number field. */
export interface IntegerField<P extends boolean = boolean> extends FieldCore<P> {
  readonly kind: 'integer';
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly default: number | undefined;
}

/** A number field. */
export interface NumberField<P extends boolean = boolean> extends FieldCore<P> {
  readonly kind: 'number';
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly default: number | undefined;
}

/** A yes/no field, read as the word it spells. */
export interface BooleanField<P extends boolean = boolean> extends FieldCore<P> {
  readonly kind: 'boolean';
  readonly safe: boolean | undefined;
  readonly default: boolean | undefined;
}

/** A consent field: only the JSON literal `true` consents. */
export interface ConsentField<R extends boolean = boolean> extends FieldCore<true> {
  readonly kind: 'consent';
  readonly required: R;
}

/** A list field. */
export interface ListField<I extends AnyField = AnyField, P extends boolean = boolean> extends FieldCore<P> {
  readonly kind: 'list';
  readonly items: I;
  readonly maxItems: number | undefined;
  readonly minItems: number | undefined;
}

/** A nested object field with its own declared fields. */
export interface ObjectField<F extends Fields = Fields, P extends boolean = boolean> extends FieldCore<P> {
  readonly kind: 'object';
  readonly fields: F;
}

/** A free-form value, offered as a string holding JSON text and decoded on the way in. */
export interface JsonField<S extends JsonShape = JsonShape, P extends boolean = boolean>
  extends FieldCore<P> {
  readonly kind: 'json';
  readonly shape: S;
}

/** Any field spec. */
export type AnyField =
  | StringField
  | IntegerField
  | NumberField
  | BooleanField
  | ConsentField
  | ListField
  | ObjectField
  | JsonField;

/** A tool's (or a nested object's) declared fields, by declared name. */
export type Fields = { readonly [name: string]: AnyField };

type JsonOfShape<S> = S extends 'object' ? JsonObject : S extends 'list' ? JsonValue[] : JsonValue;

/** The value a handler receives for a field. */
export type ValueOf<F> =
  F extends StringField<infer T>
    ? T
    : F extends IntegerField | NumberField
      ? number
      : F extends BooleanField
        ? boolean
        : F extends ConsentField<infer R>
          ? R extends true
            ? true
            : boolean
          : F extends ListField<infer I>
            ? ValueOf<I>[]
            : F extends ObjectField<infer G>
              ? ArgsOf<G>
              : F extends JsonField<infer S>
                ? JsonOfShape<S>
                : never;

type PresentKeys<F> = { [K in keyof F]: F[K] extends { present: true } ? K : never }[keyof F];

type Flatten<T> = { [K in keyof T]: T[K] } & {};

/** The arguments a handler receives: declared names, typed; fields that may be absent are optional. */
export type ArgsOf<F extends Fields> = Flatten<
  { -readonly [K in PresentKeys<F>]: ValueOf<F[K]> } & {
    -readonly [K in Exclude<keyof F, PresentKeys<F>>]?: ValueOf<F[K]>;
  }
>;

type PresentOf<O> = O extends { default: unknown } ? true : O extends { optional: true } ? false : true;
type BooleanPresentOf<O> = O extends { safe: boolean } ? true : PresentOf<O>;
type EnumOf<O> = O extends { enum: readonly (infer E)[] } ? (E extends string ? E : string) : string;
type RequiredOf<O> = O extends { optional: true } ? false : true;

function core(options: CommonOptions | undefined, hasDefault: boolean): FieldCore<boolean> {
  const optional = options?.optional === true || hasDefault;
  return { description: options?.description, required: !optional, present: !(optional && !hasDefault) };
}

function string<const O extends StringOptions = Record<never, never>>(
  options?: O,
): StringField<EnumOf<O>, PresentOf<O>> {
  return {
    kind: 'string',
    ...core(options, options?.default !== undefined),
    maxLength: options?.maxLength,
    minLength: options?.minLength,
    enum: options?.enum as readonly EnumOf<O>[] | undefined,
    pattern: options?.pattern,
    trim: options?.trim === true,
    default: options?.default as EnumOf<O> | undefined,
  } as StringField<EnumOf<O>, PresentOf<O>>;
}

function integer<const O extends NumberOptions = Record<never, never>>(
  options?: O,
): IntegerField<PresentOf<O>> {
  return {
    kind: 'integer',
    ...core(options, options?.default !== undefined),
    min: options?.min,
    max: options?.max,
    default: options?.default,
  } as IntegerField<PresentOf<O>>;
}

function number<const O extends NumberOptions = Record<never, never>>(
  options?: O,
): NumberField<PresentOf<O>> {
  return {
    kind: 'number',
    ...core(options, options?.default !== undefined),
    min: options?.min,
    max: options?.max,
    default: options?.default,
  } as NumberField<PresentOf<O>>;
}

function boolean<const O extends BooleanOptions = Record<never, never>>(
  options?: O,
): BooleanField<BooleanPresentOf<O>> {
  const fallback = options?.default ?? options?.safe;
  return {
    kind: 'boolean',
    ...core(options, fallback !== undefined),
    safe: options?.safe,
    default: options?.default,
  } as BooleanField<BooleanPresentOf<O>>;
}

function consent<const O extends ConsentOptions = Record<never, never>>(
  options?: O,
): ConsentField<RequiredOf<O>> {
  return {
    kind: 'consent',
    description: options?.description,
    required: options?.optional !== true,
    present: true,
  } as ConsentField<RequiredOf<O>>;
}

function list<const I extends AnyField, const O extends ListOptions = Record<never, never>>(
  items: I,
  options?: O,
): ListField<I, PresentOf<O>> {
  return {
    kind: 'list',
    ...core(options, false),
    items,
    maxItems: options?.maxItems,
    minItems: options?.minItems,
  } as ListField<I, PresentOf<O>>;
}

function object<const F extends Fields, const O extends ObjectOptions = Record<never, never>>(
  fields: F,
  options?: O,
): ObjectField<F, PresentOf<O>> {
  return { kind: 'object', ...core(options, false), fields } as ObjectField<F, PresentOf<O>>;
}

function json<const O extends JsonOptions = Record<never, never>>(
  options?: O,
): JsonField<O extends { shape: infer S extends JsonShape } ? S : 'any', PresentOf<O>> {
  return { kind: 'json', ...core(options, false), shape: options?.shape ?? 'any' } as JsonField<
    O extends { shape: infer S extends JsonShape } ? S : 'any',
    PresentOf<O>
  >;
}

/** Field spec builders: from these one source come the validator and the schema the model is offered. */
export const field = { string, integer, number, boolean, consent, list, object, json } as const;
