// Joins the compiled package (dist/src, which `tsc` writes first) into a few files under dist/bundle: the
// entry `import('toolseam')` loads and the CLI's. Node reads, resolves and compiles each module file on
// its own, and the runtime is ~350 of them: one file per entry, and one per part loaded on demand (a
// command, a provider's adapter, the subagents), start far sooner. The packages stay outside, loaded as
// before, so a provider's SDK still loads only when it is used. Types stay in dist/src (tsc's).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const out = join(root, 'dist', 'bundle');
rmSync(out, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['dist/src/index.js', 'dist/src/cli/bin.js'],
  outbase: 'dist/src',
  outdir: out,
  bundle: true,
  splitting: true,
  chunkNames: 'parts/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // Names as written: an error's name is its class's (ToolseamError sets it from new.target.name).
  keepNames: true,
  // Linked to the TypeScript through tsc's maps, for a stack read with --enable-source-maps.
  sourcemap: true,
  logLevel: 'warning',
});
