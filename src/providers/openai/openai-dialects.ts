import { byIndex, indexOfName, type RejectionDialect } from '../shared/rejection-dialect.js';
import { geminiDeclarations } from './gemini-declarations.js';
import { pythonReprSchemas, validationLocations } from './mistral-dialects.js';

/** OpenAI Chat/Responses: `param` or message `tools[N].function.…` / `tools[N].parameters` (0-based). */
export const openaiToolPaths: RejectionDialect = (evidence, sent) =>
  byIndex(
    [...evidence.params, ...evidence.texts],
    /(?<![\w.])tools\[(\d+)\](?=\.(?:function|parameters|name|description|strict)\b)/g,
    sent,
    (m) => Number(m[1]),
  );

/**
 * By the tool's own name: `… for function 'NAME'` in a schema error (OpenAI, its proxies), and Mistral's
 * `Function name was NAME but must be …`.
 */
export const quotedToolNames: RejectionDialect = (evidence, sent) => {
  const indices: number[] = [];
  for (const text of evidence.texts) {
    if (/schema|parameters|properties/i.test(text)) {
      for (const m of text.matchAll(/\b(?:function|tool)\s+['"]([^'"]+)['"]/gi)) {
        indices.push(indexOfName(sent, m[1] ?? ''));
      }
    }
    for (const m of text.matchAll(/\bFunction name was (\S+) but must\b/g)) {
      indices.push(indexOfName(sent, m[1] ?? ''));
    }
  }
  return { indices: indices.filter((i) => i >= 0), sawPath: false, byName: true };
};

/**
 * The forms the OpenAI-compatible endpoints answer in themselves: OpenAI's, Gemini's and Mistral's (a
 * router such as OpenRouter may also relay an upstream's; see the providers' `family-dialects.ts`).
 */
export const OPENAI_DIALECTS: readonly RejectionDialect[] = [
  quotedToolNames,
  pythonReprSchemas,
  geminiDeclarations,
  openaiToolPaths,
  validationLocations,
];
