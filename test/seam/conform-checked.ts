import { expect } from 'vitest';
import { conformParameters } from '../../src/seam/index.js';
import { strictProblems } from './strict-profile.js';
import { deepFreeze } from './support.js';

/** Conforms a frozen copy (any mutation throws) and checks the offered schema is portable. */
export function conform(declared: unknown) {
  const result = conformParameters(deepFreeze(declared));
  if (result.parameters !== undefined) expect(strictProblems(result.parameters)).toEqual([]);
  return result;
}

/** The conform step's issues as [rule, path, action] rows. */
export function rules(declared: unknown) {
  return conform(declared).issues.map((i) => [i.rule, i.path, i.action]);
}
