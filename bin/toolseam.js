#!/usr/bin/env -S node --v8-pool-size=1 --liftoff-only
// The published entry: the compiled, bundled CLI (built by `npm run build`, which `npm ci` runs via
// `prepare`).
// One V8 worker thread, not Node's fixed four: on a two-core machine four compiler and collector
// threads take both cores from the main thread (a cold conform of 1,403 tools waited ~20 ms for one).
// WebAssembly stays on its first compiler: the HTTP parser of Node's fetch (a WebAssembly module) was
// otherwise recompiled with optimisations in the background, and a process waits for that before it
// exits (~90 ms after `chat -m` had finished its work).
import '../dist/bundle/cli/bin.js';
