import { byIndex, type RejectionDialect } from '../shared/rejection-dialect.js';

/** Bedrock: Coral constraint errors `toolConfig.tools.K.member` (1-based) and `toolConfig.tools.K.toolSpec` (0-based). */
export const bedrockToolPaths: RejectionDialect = (evidence, sent) => {
  const member = byIndex(
    evidence.texts,
    /toolConfig\.tools\.(\d+)\.member\b/g,
    sent,
    (m) => Number(m[1]) - 1,
  );
  const spec = byIndex(evidence.texts, /toolConfig\.tools\.(\d+)\.toolSpec\b/g, sent, (m) => Number(m[1]));
  return {
    indices: [...member.indices, ...spec.indices],
    sawPath: member.sawPath || spec.sawPath,
    byName: false,
  };
};
