import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, afterEach, beforeAll, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { type HarnessOptions, type RuntimeHarness, startHarness } from '../support/runtime-harness.js';

/** Debian's chromium, which the browser tests drive (`.ci/run` installs it when it is missing). */
export const CHROMIUM = process.env.TOOLSEAM_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export const NO_BROWSER = existsSync(CHROMIUM)
  ? undefined
  : `chromium is not installed at ${CHROMIUM} (apt-get install -y chromium, or set TOOLSEAM_CHROMIUM)`;

const root = resolve(import.meta.dirname, '..', '..');

/** Builds the page from web/ into a fresh folder, as `npm run build` does into dist/web. */
export async function buildPage(): Promise<{ dir: string; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-page-'));
  await build({
    configFile: join(root, 'web', 'vite.config.ts'),
    build: { outDir: dir, emptyOutDir: true },
    logLevel: 'error',
  });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Launches headless Chromium. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true });
}

/** The runtime on the stand-in and a real SQLite file, served with the built page. */
export interface ServedPage extends RuntimeHarness {
  readonly server: RunningServer;
  /** `http://127.0.0.1:PORT` */
  readonly base: string;
}

/**
 * Starts `toolseam serve`'s server on an ephemeral port (loopback unless `host` says otherwise; it is
 * reached at 127.0.0.1 either way), serving the page from `webRoot`.
 */
export async function servePage(
  webRoot: string,
  options: HarnessOptions & { host?: string } = {},
): Promise<ServedPage> {
  const { host, ...rest } = options;
  const harness = await startHarness(rest);
  const server = await startServer({
    runtime: harness.runtime,
    port: 0,
    version: 'test',
    webRoot,
    ...(host === undefined ? {} : { host }),
  });
  return {
    ...harness,
    server,
    base: `http://127.0.0.1:${server.port}`,
    async close() {
      await server.shutdown(2_000);
      await harness.close();
    },
  };
}

/** What a file of browser tests uses: the server with the built page, and tabs of one browser context. */
export interface BrowserSuite {
  /** Starts a server for this test (closed after it). */
  serve(options?: HarnessOptions & { host?: string }): Promise<ServedPage>;
  /** A new tab in this test's browser context, made on first use with `viewport` (closed after the test). */
  tab(viewport?: { width: number; height: number }): Promise<Page>;
}

/**
 * Registers the hooks of a file of browser tests: the page built and Chromium launched once for the
 * file; each test's servers and browser context closed after it.
 */
export function browserSuite(): BrowserSuite {
  let built: { dir: string; remove(): void } | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  const servers: ServedPage[] = [];
  // The reason is printed, and shows in a verbose report as a skipped test's name.
  if (NO_BROWSER) {
    console.warn(`browser tests skipped: ${NO_BROWSER}`);
    it.skip(`the page in a browser: ${NO_BROWSER}`, () => {});
  }
  beforeAll(async () => {
    if (NO_BROWSER) return;
    built = await buildPage();
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await browser?.close();
    built?.remove();
  });
  return {
    async serve(options = {}) {
      const served = await servePage(built!.dir, options);
      servers.push(served);
      return served;
    },
    async tab(viewport) {
      context ??= await browser!.newContext(viewport ? { viewport } : {});
      return context.newPage();
    },
  };
}

/** Errors the page threw or logged, collected so a test can assert there were none. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

/** Starts a session from the sessions list and waits for its chat. */
export async function startSession(page: Page, base: string, title: string): Promise<string> {
  await page.goto(`${base}/#/`);
  await page.getByLabel('New session').fill(title);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.waitForURL(/#\/sessions\/./);
  await page.locator('#chat-title').filter({ hasNotText: 'Loading…' }).waitFor();
  return decodeURIComponent(new URL(page.url()).hash.replace('#/sessions/', ''));
}

/** Saves a screenshot of `page` as `name`.png into $TOOLSEAM_SCREENS when it is set (to look at the page). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.TOOLSEAM_SCREENS;
  if (dir) await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/** Writes a message in the message box and sends it with Enter. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const box = page.getByLabel('Message', { exact: true });
  await box.fill(text);
  await box.press('Enter');
}
