import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/** The page's build: web/ → dist/web (index.html + assets/), served by `toolseam serve` at `/`. */
export default defineConfig({
  root: here,
  base: '/',
  // Vite transforms the JSX itself; only the runtime it imports changes.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // A source map would be served beside the page to anyone; the page is small enough to read as built.
    sourcemap: false,
  },
  logLevel: 'warn',
});
