/** Rule ids of the portable profile (the ids the original seam reports), plus the naming rules. */
export type RuleId =
  | 'root_not_object'
  | 'root_combinator'
  | 'node_not_schema'
  | 'type_missing'
  | 'type_invalid'
  | 'array_items_missing'
  | 'object_properties_missing'
  | 'required_invalid'
  | 'enum_invalid'
  | 'format_unsupported'
  | 'keyword_unsupported'
  | 'keyword_misplaced'
  /** A property name some provider refuses (Anthropic and Bedrock take `[a-zA-Z0-9_.-]{1,64}`). */
  | 'property_key_invalid'
  /** The tool has no name (reported by the seam). */
  | 'name_missing'
  /** Another tool travels under the same wire name (reported by the census). */
  | 'name_collision'
  /** The tool has, or travels under, one of the runtime's own names (reported by the census). */
  | 'name_reserved';

/** What the seam did about a defect. */
export type IssueAction =
  /** Rewritten so the offered schema still accepts every value the declared one accepts. */
  | 'repaired'
  /** No portable form: the value travels as JSON text and is decoded before the call is checked. */
  | 'lifted'
  /** Nothing can carry it: the tool is left out. */
  | 'blocking';

/** One defect of a declared schema, where it is, and what the seam did about it. */
export interface SchemaIssue {
  readonly rule: RuleId;
  /** Dotted path inside the schema, e.g. `properties.tags.items` ("" is the root). */
  readonly path: string;
  /** What is wrong, in plain words. */
  readonly detail: string;
  readonly action: IssueAction;
  /** What the seam did (absent when blocking). */
  readonly fix?: string;
}

/** One line for a person: `path: detail — fix` (naming issues have no path). */
export function describeIssue(issue: SchemaIssue): string {
  if (issue.rule.startsWith('name_')) return issue.detail;
  const where = issue.path === '' ? 'parameters' : issue.path;
  return issue.fix === undefined ? `${where}: ${issue.detail}` : `${where}: ${issue.detail} — ${issue.fix}`;
}
