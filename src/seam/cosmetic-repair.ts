import type { SchemaIssue } from './schema-issue.js';

/**
 * Keywords a model gets nothing from: the schema's dialect, its ids and anchors, comments for its
 * authors, and definitions (every reference into them is inlined, and that inlining is an issue of
 * its own). Dropping one leaves what a model reads as it was.
 */
const UNREAD_KEYWORDS = [
  '$schema',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$vocabulary',
  '$comment',
  '$defs',
  'definitions',
];

/** "`$schema` is not portable" → "$schema", for each keyword a model does not read. */
const UNREAD_BY_DETAIL = new Map(UNREAD_KEYWORDS.map((key) => [`\`${key}\` is not portable`, key]));

/**
 * True for a repair that changes nothing a model would see: a dropped keyword only schema tooling
 * reads (`$schema`, `$id`, `$comment`, …). Read from the recorded issue, so the walk marks nothing.
 */
export function isCosmeticRepair(issue: SchemaIssue): boolean {
  if (issue.rule !== 'keyword_unsupported' || issue.action !== 'repaired') return false;
  if (!issue.fix?.startsWith('dropped it')) return false;
  const key = UNREAD_BY_DETAIL.get(issue.detail);
  return key !== undefined && (issue.path === key || issue.path.endsWith(`.${key}`));
}
