import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** The test copy of the MCP tool corpus. */
export const CORPUS_DIR = join(import.meta.dirname, 'corpus', 'mcp-tools');

/** One server's `tools/list` answer, as the corpus stores it. */
export interface CorpusServer {
  /** File name without `.json.gz` (the reference names tools `mcp/<stem>/<tool>`). */
  readonly stem: string;
  readonly server: string;
  readonly tools: readonly Record<string, unknown>[];
}

/** What the original seam decided for one corpus tool. */
export interface ReferenceVerdict {
  readonly server: string;
  readonly name: string;
  readonly verdict: 'portable' | 'repaired' | 'excluded';
  readonly rules: readonly string[];
  readonly blocking_rules: readonly string[];
  readonly wireName: string;
  readonly censusLeftOut: boolean;
}

function readGzipJson(file: string): unknown {
  return JSON.parse(gunzipSync(readFileSync(join(CORPUS_DIR, file))).toString('utf8'));
}

/** Every server file of the corpus. */
export function corpusServers(): CorpusServer[] {
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.json.gz') && !f.startsWith('reference-verdicts'))
    .sort()
    .map((f) => {
      const doc = readGzipJson(f) as { server: string; tools: Record<string, unknown>[] };
      return { stem: f.replace(/\.json\.gz$/, ''), server: doc.server, tools: doc.tools };
    });
}

/** The original seam's verdict for every corpus tool. */
export function referenceVerdicts(): ReferenceVerdict[] {
  return (readGzipJson('reference-verdicts.json.gz') as { tools: ReferenceVerdict[] }).tools;
}
