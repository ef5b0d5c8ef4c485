import { byIndex, type RejectionDialect } from '../shared/rejection-dialect.js';

/** Anthropic (also relayed by Bedrock for Claude, and by routers): `tools.N.custom.…` (0-based). */
export const anthropicToolPaths: RejectionDialect = (evidence, sent) =>
  byIndex(evidence.texts, /(?<![\w.])tools\.(\d+)\.custom\b/g, sent, (m) => Number(m[1]));
