import { Ajv } from 'ajv';

/** `{type: object, properties}` plus extra keywords. */
export function obj(properties: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { type: 'object', properties, ...extra };
}

/** Freezes `value` and everything inside it, so a mutation by the code under test throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** A JSON Schema validator that reads declared schemas as loosely as real servers write them. */
export function looseAjv(): Ajv {
  return new Ajv({
    strict: false,
    validateFormats: false,
    validateSchema: false,
    ownProperties: true,
    code: { optimize: false },
  });
}
