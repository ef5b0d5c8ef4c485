import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceRoot } from './source-root.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = sourceRoot(join('test', 'seam', 'corpus'));

/** The corpus of real MCP servers' tool lists. */
export const corpusDir = join(root ?? '.', 'test', 'seam', 'corpus', 'mcp-tools');

/** Which servers a cold run conforms: all, only the largest, or all but it. */
export type ServerFilter = 'all' | 'largest' | 'rest';

/** The corpus's largest server by schema size (generated Microsoft Graph schemas: two thirds of its bytes). */
export const LARGEST_SERVER = 'softeria__ms-365-mcp-server';

/**
 * The script a fresh process runs: read the corpus (untimed, without loading the seam), collect the
 * garbage that reading left (so the timed pass does not pay for it), then load the seam and conform
 * every server's tools once, each timed. On Linux it also reads the main thread's CPU time around
 * the pass (the time it actually ran, without waiting for a core) and the whole process's.
 *
 * With `handshake` (a folder), the script writes `ready` there and waits for `go` before the pass, then
 * writes `done` and waits for `stop`: a profiler outside can count the pass alone.
 */
export function coldScript(keep: ServerFilter = 'all', handshake?: string): string {
  const seam = pathToFileURL(join(here, '..', 'src', 'seam', 'index.js')).href;
  return `
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
const dir = ${JSON.stringify(corpusDir)};
const keep = ${JSON.stringify(keep)};
const largest = ${JSON.stringify(LARGEST_SERVER)};
const servers = readdirSync(dir)
  .filter((f) => f.endsWith('.json.gz') && !f.startsWith('reference-verdicts'))
  .filter((f) => keep === 'all' || (keep === 'largest') === f.startsWith(largest))
  .sort()
  .map((f) => {
    const stem = f.slice(0, -'.json.gz'.length);
    const tools = JSON.parse(gunzipSync(readFileSync(join(dir, f))).toString('utf8')).tools;
    const definitions = tools.map((t) => ({
      name: 'mcp/' + stem + '/' + t.name,
      description: typeof t.description === 'string' ? t.description : '',
      parameters: t.inputSchema,
      risk: 'caution',
      requiresApproval: true,
    }));
    return { stem, definitions };
  });
const threadStat = '/proc/self/task/' + process.pid + '/schedstat';
const mainCpu = () => {
  try {
    return Number(readFileSync(threadStat, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
};
const handshake = ${JSON.stringify(handshake ?? '')};
const pause = new Int32Array(new SharedArrayBuffer(4));
const signal = (name, awaited) => {
  if (handshake === '') return;
  writeFileSync(join(handshake, name), '');
  while (!existsSync(join(handshake, awaited))) Atomics.wait(pause, 0, 0, 2);
};
globalThis.gc();
const t0 = performance.now();
const { offerTools } = await import(${JSON.stringify(seam)});
const t1 = performance.now();
signal('ready', 'go');
const main0 = mainCpu();
const cpu0 = process.cpuUsage();
let offered = 0;
for (const s of servers) offered += offerTools(s.definitions, { provider: 'mcp/' + s.stem, app: 'mcp' }).offered.length;
const t2 = performance.now();
signal('done', 'stop');
const cpu = process.cpuUsage(cpu0);
const main = mainCpu() - main0;
process.stdout.write(JSON.stringify({ load: t1 - t0, conform: t2 - t1, main, cpu: (cpu.user + cpu.system) / 1000, offered, flags: process.execArgv }));
`;
}
