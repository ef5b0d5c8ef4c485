import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

/** Which `src` areas each area may import (DESIGN.md). `*` means anything. */
const ALLOWED: Record<string, readonly string[] | '*'> = {
  core: [],
  seam: ['core'],
  tools: ['core', 'seam'],
  retrieval: ['core'],
  providers: ['core'],
  store: ['core'],
  runtime: ['core', 'seam', 'tools', 'retrieval'],
  testing: ['core'],
  // the MCP surface (toolseam mcp-serve): our tools served to MCP clients through the runtime's call path
  'mcp-surface': ['core', 'runtime'],
  server: ['core', 'runtime'],
  // hosted mode's job queue on pg-boss (the runtime's job path reaches it through core's JobQueue)
  queue: ['core'],
  cli: '*',
  root: '*',
};

/** Vendor packages and the only places allowed to import them. */
const VENDORS: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/^openai(\/|$)/, ['providers/openai']],
  [/^@anthropic-ai\/sdk(\/|$)/, ['providers/anthropic']],
  [/^@aws-sdk\//, ['providers/bedrock']],
  [/^@smithy\//, ['providers/bedrock', 'testing']],
  // the client side (MCP servers as tool providers) and the server side (toolseam mcp-serve)
  [/^@modelcontextprotocol\/sdk(\/|$)/, ['tools/mcp', 'mcp-surface']],
  [/^better-sqlite3$/, ['store']],
  // PostgreSQL: the store's own folder, the LISTEN/NOTIFY signals and the job queue
  [/^pg(\/|$)/, ['store/postgres', 'store/pg-signals', 'queue']],
  [/^(hono|@hono\/)/, ['server']],
  [/^pg-boss$/, ['queue']],
];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

function specifiers(text: string): string[] {
  const found: string[] = [];
  const pattern =
    /(?:^|[^.\w])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(pattern)) found.push((m[1] ?? m[2] ?? m[3]) as string);
  return found;
}

/** `src/x/...` → `x`; files directly in src → `root`. */
function area(file: string): string {
  const parts = relative(src, file).split(sep);
  return parts.length === 1 ? 'root' : (parts[0] as string);
}

/** The folder inside its area of a path inside `src`: `providers/openai/x.ts` → `openai` ('' for `providers/x.ts`). */
function folderInArea(rel: string): string {
  const parts = rel.split('/');
  return parts.length > 2 ? (parts[1] as string) : '';
}

/**
 * What is wrong with `from` importing `to`, both inside providers/: a vendor's folder never imports a
 * sibling vendor's; `shared/` is vendor-neutral, so it imports no vendor's folder; and only the files
 * directly in providers/ (the factory, the config's defaults, each family's dialects) gather the vendors,
 * so no folder imports them.
 */
function providersProblem(from: string, to: string): string | undefined {
  const own = folderInArea(from);
  const other = folderInArea(to);
  if (own === '' || own === other) return undefined;
  if (other === '')
    return 'only the files directly in providers/ gather the vendors; nothing below imports them';
  if (own === 'shared') return 'providers/shared is vendor-neutral and imports no vendor folder';
  if (other !== 'shared') return 'a provider folder never imports a sibling vendor';
  return undefined;
}

/**
 * What is wrong with `from` importing `to`, both inside runtime/: subagents are built on the runtime
 * (they run leaves as its sessions), so nothing else in runtime/ imports runtime/subagents/.
 */
function runtimeProblem(from: string, to: string): string | undefined {
  const inSubagents = (rel: string): boolean => rel.startsWith('runtime/subagents/');
  if (inSubagents(to) && !inSubagents(from)) {
    return 'runtime/subagents is built on the runtime, which never imports it';
  }
  return undefined;
}

/**
 * The libraries of tools/; every other folder there is a kind of tool provider (`builtin`, `apps`, `mcp`).
 * `notify` (the gateways and the outbox) is a library the built-in notify tools and the automations use.
 */
const TOOL_LIBRARIES = ['registry', 'fields', 'arguments', 'notify'];
/** The files at the tools/ root that gather every folder (the barrel, the registry built from a config). */
const TOOL_GATHERERS = ['tools/index.ts', 'tools/registry-config.ts'];

/**
 * What is wrong with `from` importing `to`, both inside tools/: only the root's gatherers name every
 * folder, so nothing below imports them; a provider kind never imports a sibling kind; the libraries
 * import no kind; and `fields/` reads arguments with `arguments/`, which never imports `fields/` back.
 */
function toolsProblem(from: string, to: string): string | undefined {
  const own = folderInArea(from);
  const other = folderInArea(to);
  if (own === '' || own === other) return undefined;
  if (TOOL_GATHERERS.includes(to))
    return 'only the tools/ root gathers its folders; nothing below imports it';
  const isKind = (folder: string) => folder !== '' && !TOOL_LIBRARIES.includes(folder);
  if (isKind(own) && isKind(other)) return 'a provider kind never imports a sibling kind';
  if (!isKind(own) && isKind(other)) return 'registry/, fields/ and arguments/ import no provider kind';
  if (own === 'arguments' && other === 'fields') return 'fields/ imports arguments/, never back';
  return undefined;
}

function violations(): string[] {
  const problems: string[] = [];
  for (const file of walk(src)) {
    const from = area(file);
    const rel = relative(src, file).split(sep).join('/');
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec);
        if (!target.startsWith(src + sep)) continue;
        const to = area(target);
        const allowed = ALLOWED[from];
        if (to !== from && allowed !== '*' && !allowed?.includes(to)) {
          problems.push(`${rel} imports ${spec} (${from} may not import ${to})`);
        }
        const targetRel = relative(src, target).split(sep).join('/');
        if (from === 'providers' && to === 'providers') {
          const problem = providersProblem(rel, targetRel);
          if (problem) problems.push(`${rel} imports ${spec} (${problem})`);
        }
        if (from === 'tools' && to === 'tools') {
          const problem = toolsProblem(rel, targetRel.replace(/\.js$/, '.ts'));
          if (problem) problems.push(`${rel} imports ${spec} (${problem})`);
        }
        if (from === 'runtime' && to === 'runtime') {
          const problem = runtimeProblem(rel, targetRel);
          if (problem) problems.push(`${rel} imports ${spec} (${problem})`);
        }
        continue;
      }
      for (const [pattern, places] of VENDORS) {
        if (pattern.test(spec) && !places.some((p) => rel.startsWith(`${p}/`))) {
          problems.push(`${rel} imports ${spec} (only ${places.join(', ')} may)`);
        }
      }
    }
  }
  return problems;
}

/**
 * Which files of `files` (path → text, paths relative to src with `/`) each one imports: every relative
 * import, type-only ones and `import()` included, as a path of `files`.
 */
function importGraph(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets: string[] = [];
    for (const spec of specifiers(text)) {
      if (!spec.startsWith('.')) continue;
      const target = posix.join(posix.dirname(file), spec).replace(/\.js$/, '.ts');
      if (files.has(target)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Every import cycle of `graph`: the files of each group that import one another round, sorted. */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components: each component of more than one file holds a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    const selfImport = graph.get(file)?.includes(file) === true;
    if (group.length > 1 || selfImport) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** The files of src, by path relative to it. */
function sourceFiles(): Map<string, string> {
  return new Map(
    walk(src).map((file) => [relative(src, file).split(sep).join('/'), readFileSync(file, 'utf8')]),
  );
}

describe('architecture', () => {
  it('keeps imports pointing one way, as DESIGN.md draws them', () => {
    expect(violations()).toEqual([]);
  });

  it('finds a violation when one exists (the scanner is not blind)', () => {
    expect(specifiers(`import { x } from '../runtime/turn.js';\nconst m = await import('openai');`)).toEqual([
      '../runtime/turn.js',
      'openai',
    ]);
    expect(area(join(src, 'seam', 'conform.ts'))).toBe('seam');
    expect(ALLOWED.seam).not.toContain('runtime');
  });

  it('has no import cycle between files of src/, type-only imports included', () => {
    expect(importCycles(importGraph(sourceFiles()))).toEqual([]);
  });

  it('finds an import cycle when one exists, through a type-only import or an import() too', () => {
    const planted = new Map([
      ['runtime/turn/a.ts', "import type { B } from '../calls/b.js';\nexport type A = B;"],
      ['runtime/calls/b.ts', "export const b = async () => (await import('./c.js')).c;"],
      [
        'runtime/calls/c.ts',
        "import type { A } from '../turn/a.js';\nexport const c: A | undefined = undefined;",
      ],
      ['runtime/calls/d.ts', "import { b } from './b.js';\nexport const d = b;"],
      ['core/e.ts', "export * from './e.js';"],
    ]);
    expect(importCycles(importGraph(planted))).toEqual([
      ['runtime/calls/b.ts', 'runtime/calls/c.ts', 'runtime/turn/a.ts'],
      ['core/e.ts'],
    ]);
  });

  it('keeps runtime/subagents on top of the runtime: nothing else in runtime/ imports it', () => {
    expect(runtimeProblem('runtime/resume/abandoned-turns.ts', 'runtime/subagents/run-batch.ts')).toMatch(
      /never imports it/,
    );
    expect(runtimeProblem('runtime/subagents/run-leaf.ts', 'runtime/runtime.ts')).toBeUndefined();
    expect(
      runtimeProblem('runtime/subagents/run-leaf.ts', 'runtime/subagents/leaf-clock.ts'),
    ).toBeUndefined();
  });

  it('keeps each vendor in its own folder of providers/, with shared/ neutral and the root gathering them', () => {
    const bedrock = 'providers/bedrock/bedrock-adapter.ts';
    expect(providersProblem(bedrock, 'providers/anthropic/anthropic-dialect.ts')).toMatch(/sibling/);
    expect(
      providersProblem('providers/shared/retry-policy.ts', 'providers/openai/openai-dialects.ts'),
    ).toMatch(/vendor-neutral/);
    expect(providersProblem(bedrock, 'providers/family-dialects.ts')).toMatch(/gather/);
    expect(providersProblem(bedrock, 'providers/shared/first-byte.ts')).toBeUndefined();
    expect(providersProblem(bedrock, 'providers/bedrock/bedrock-errors.ts')).toBeUndefined();
    expect(providersProblem('providers/create-model-adapter.ts', bedrock)).toBeUndefined();
  });

  it('keeps the provider kinds of tools/ apart, the libraries free of them and the root gathering them', () => {
    const mcp = 'tools/mcp/mcp-provider.ts';
    expect(toolsProblem(mcp, 'tools/builtin/run-command.ts')).toMatch(/sibling kind/);
    expect(toolsProblem('tools/registry/tool-registry.ts', 'tools/apps/load-app.ts')).toMatch(
      /no provider kind/,
    );
    expect(toolsProblem('tools/arguments/json-text.ts', 'tools/fields/field.ts')).toMatch(/never back/);
    expect(toolsProblem('tools/fields/define-tool.ts', 'tools/registry-config.ts')).toMatch(/gathers/);
    expect(toolsProblem(mcp, 'tools/registry/with-deadline.ts')).toBeUndefined();
    expect(toolsProblem(mcp, 'tools/redact-secrets.ts')).toBeUndefined();
    expect(toolsProblem('tools/fields/field-reader.ts', 'tools/arguments/json-text.ts')).toBeUndefined();
    expect(toolsProblem('tools/registry-config.ts', mcp)).toBeUndefined();
  });
});
