import type { WireTool } from '../../core/model.js';
import { propertiesOf, type RejectionDialect } from '../shared/rejection-dialect.js';

/**
 * Whether a Gemini declaration path can be trusted to mean `tool`: when it names a property under
 * `.parameters`, that tool must declare it — by key (`properties[name]`, semantic errors) or by position
 * (`properties[3].value`, proto-parse errors count keys in the order sent).
 */
function declarationFits(tool: WireTool, rest: string): boolean {
  const at = rest.indexOf('.parameters');
  if (at < 0) return true;
  const named = /^\.properties\[([^\]]+)\](\.value)?/.exec(rest.slice(at + '.parameters'.length));
  if (!named) return true;
  const key = (named[1] ?? '').replace(/^['"]|['"]$/g, '');
  const props = propertiesOf(tool);
  if (named[2] && /^\d+$/.test(key)) return Object.keys(props).length > Number(key);
  return Object.hasOwn(props, key);
}

/** Gemini (native and OpenAI-compatible): `function_declarations[K]...`, trusted only when it fits. */
export const geminiDeclarations: RejectionDialect = (evidence, sent) => {
  const pattern = /(?:function_declarations|functionDeclarations)\[(\d+)\]((?:\.\w+(?:\[[^\]]*\])?)*)/g;
  const indices: number[] = [];
  let sawPath = false;
  for (const text of evidence.texts) {
    for (const match of text.matchAll(pattern)) {
      sawPath = true;
      const index = Number(match[1]);
      const tool = sent[index];
      if (tool && declarationFits(tool, match[2] ?? '')) indices.push(index);
    }
  }
  return { indices, sawPath, byName: false };
};
