// A host process that runs a `bash` command (a shell that writes its pid, then sleeps) and waits to be
// signalled. argv: <pidFile> [serverPidFile] — with a second file it also starts a stdio MCP server.
// TOOLSEAM_CHILD_SANDBOX=<seconds> runs the command in the sandbox instead.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { BoundedOutput } from '../../src/tools/builtin/bounded-output.js';
import { runCommand } from '../../src/tools/builtin/run-command.js';
import { sandboxArgs } from '../../src/tools/builtin/sandbox-plan.js';
import { shellSandbox } from '../../src/tools/builtin/sandbox-probe.js';
import { StdioGroupTransport } from '../../src/tools/mcp/stdio-group-transport.js';

const [pidFile, serverPidFile] = process.argv.slice(2) as [string, string | undefined];

// With TOOLSEAM_CHILD_SANDBOX set, the command runs in the sandbox (the folder it runs in as its workspace)
// and sleeps for that many seconds, so the test can find it among the machine's processes by its command line.
const sandboxed = process.env.TOOLSEAM_CHILD_SANDBOX;
const sleep = sandboxed ?? '300';
const sandbox = shellSandbox();
void runCommand({
  command: `echo $$ > '${pidFile}'; exec sleep ${sleep}`,
  cwd: process.cwd(),
  env: process.env,
  timeoutMs: 300_000,
  signal: new AbortController().signal,
  output: new BoundedOutput(new Map()),
  ...(sandboxed !== undefined && sandbox.ready
    ? {
        sandbox: {
          bwrap: sandbox.bwrap,
          args: sandboxArgs({
            roots: [process.cwd()],
            cwd: process.cwd(),
            home: homedir(),
            hidden: [],
            network: false,
            read: [],
          }),
        },
      }
    : {}),
});
if (serverPidFile !== undefined) {
  await new StdioGroupTransport({
    command: '/bin/sh',
    args: ['-c', `echo $$ > '${serverPidFile}'; exec sleep 300`],
    env: {},
    maxMessageBytes: 1_000_000,
  }).start();
}
// Ready once each shell has written its pid (it may not have run yet when spawn reports).
while (![pidFile, serverPidFile].every((file) => file === undefined || /\d\n/.test(read(file)))) {
  await delay(20);
}
process.stdout.write('ready\n');
setInterval(() => undefined, 60_000);

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
