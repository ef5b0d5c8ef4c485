import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';
import { startStandIn } from '../src/testing/index.js';
import type { BenchFigure } from './run.js';
import { median, percentile } from './stats.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB = join(root, 'dist', 'web');
const CHROMIUM = process.env.TOOLSEAM_CHROMIUM ?? '/usr/bin/chromium';
/** Cold loads of the page (a fresh browser context each: nothing cached), after one to warm the server. */
const LOADS = 15;
/** Sessions in the database, so the first render shows a list read from the API. */
const SESSIONS = 20;

/** Run in the page before its own script: sets `window.__rendered` when the sessions list is there. */
const RENDER_MARK = `
  const seen = new MutationObserver(() => {
    if (!document.querySelector('ul.sessions li')) return;
    window.__rendered = performance.now();
    seen.disconnect();
  });
  seen.observe(document, { childList: true, subtree: true });
`;

/** The built page's script and styles, gzipped as a server sends them. */
function gzipBytes(): number {
  const assets = join(WEB, 'assets');
  return readdirSync(assets)
    .filter((f) => /\.(js|css)$/.test(f))
    .reduce((sum, f) => sum + gzipSync(readFileSync(join(assets, f))).length, 0);
}

/** Starts `toolseam serve` as a person does (the built CLI, port 0) and resolves with its address. */
function startServe(db: string, baseURL: string): Promise<{ url: string; proc: ChildProcess }> {
  const args = [
    'bin/toolseam.js',
    'serve',
    '--port',
    '0',
    '--db',
    db,
    '--base-url',
    baseURL,
    '--model',
    'demo',
  ];
  const proc = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /toolseam serve: (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ url: url.replace(/\/$/, ''), proc });
    });
    proc.once('exit', (code) =>
      reject(new Error(`toolseam serve exited (${code}) before it listened: ${out}`)),
    );
  });
}

/**
 * The page's figures: its script and styles gzipped, and its first render in headless Chromium on
 * loopback against `toolseam serve` (from navigation to the sessions list read from the API on screen).
 */
export async function bench(): Promise<BenchFigure[]> {
  if (!existsSync(join(WEB, 'index.html')))
    throw new Error(`no built page in ${WEB}: npm run build makes it`);
  const kB = gzipBytes() / 1024;
  const figures: BenchFigure[] = [
    {
      name: 'page: script + styles, gzip',
      value: Number(kB.toFixed(1)),
      unit: 'kB',
      target: '< 150 kB',
      ok: kB < 150,
    },
  ];
  if (!existsSync(CHROMIUM)) {
    process.stdout.write(`(first render not measured: no chromium at ${CHROMIUM})\n`);
    return figures;
  }
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-bench-page-'));
  const standIn = await startStandIn({ family: 'openai', whenScriptEmpty: 'echo' });
  const { url, proc } = await startServe(join(dir, 'bench.db'), standIn.baseURL);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  try {
    for (let i = 0; i < SESSIONS; i++) {
      await fetch(`${url}/api/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: `session ${i}` }),
      });
    }
    const { rendered, painted } = await measureLoads(browser, url);
    const p50 = median(rendered);
    const p95 = percentile(rendered, 0.95);
    figures.push(
      {
        name: `page: first render, sessions list shown (median of ${LOADS})`,
        value: Number(p50.toFixed(1)),
        unit: 'ms',
        target: '< 300 ms',
        ok: p50 < 300,
      },
      {
        name: 'page: first render, sessions list shown (p95)',
        value: Number(p95.toFixed(1)),
        unit: 'ms',
        target: '< 300 ms',
        ok: p95 < 300,
      },
      {
        name: 'page: first contentful paint (median)',
        value: Number(median(painted).toFixed(1)),
        unit: 'ms',
      },
    );
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    await standIn.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

/**
 * Loads the page `LOADS` times after one to warm the server, each in a fresh context (nothing cached):
 * when the list showed and when the first paint came, in ms since navigation began.
 */
async function measureLoads(browser: Browser, url: string) {
  const rendered: number[] = [];
  const painted: number[] = [];
  for (let i = 0; i <= LOADS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript({ content: RENDER_MARK });
    await page.goto(`${url}/`);
    // A function, not a string: the page's CSP refuses eval, which a string predicate needs.
    await page.waitForFunction(() => (globalThis as { __rendered?: number }).__rendered !== undefined);
    const [list, paint] = (await page.evaluate(
      "[window.__rendered, performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0]",
    )) as [number, number];
    if (i > 0) {
      rendered.push(list);
      painted.push(paint);
    }
    await context.close();
  }
  return { rendered, painted };
}
