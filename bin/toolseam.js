#!/usr/bin/env -S node --v8-pool-size=1
// The published entry: the compiled CLI (built by `npm run build`, which `npm ci` runs via `prepare`).
// One V8 worker thread, not Node's fixed four: on a two-core machine four compiler and collector
// threads take both cores from the main thread (a cold conform of 1,403 tools waited ~20 ms for one).
import '../dist/src/cli/bin.js';
