#!/usr/bin/env -S node --v8-pool-size=1
// The published entry: the compiled, bundled CLI (built by `npm run build`, which `npm ci` runs via
// `prepare`).
// One V8 worker thread, not Node's fixed four: on a two-core machine four compiler and collector
// threads take both cores from the main thread (a cold conform of 1,403 tools waited ~20 ms for one).
// No V8 flag besides: one (--liftoff-only was) makes V8 refuse the compiled code Node ships for its own
// modules, which every start then compiles again (~30 ms of `chat -m`). The model's requests go over
// node:http (src/providers/shared/http-fetch.ts), so only what still uses Node's fetch (MCP servers over
// HTTP, OpenAPI apps, notifications) compiles its WebAssembly HTTP parser, whose optimising recompile
// a process waits for before it exits.
import '../dist/bundle/cli/bin.js';
