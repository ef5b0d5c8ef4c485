// A host process that starts a stdio server (a shell that writes its pid, then sleeps) and waits to be
// signalled. argv: <pidFile> [handles] — with "handles" the host listens for SIGTERM itself.
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { StdioGroupTransport } from '../../src/tools/mcp/stdio-group-transport.js';

const [pidFile, mode] = process.argv.slice(2) as [string, string | undefined];

if (mode === 'handles') {
  process.on('SIGTERM', () => {
    process.stdout.write('host-handled\n');
  });
  process.stdin.on('end', () => process.exit(0)).resume();
}
const transport = new StdioGroupTransport({
  command: '/bin/sh',
  args: ['-c', `echo $$ > '${pidFile}'; exec sleep 300`],
  env: {},
  maxMessageBytes: 1_000_000,
});
await transport.start();
// Ready once the server has written its pid (the shell may not have run yet when spawn reports).
while (!/\d\n/.test(readPid())) await delay(20);
process.stdout.write('ready\n');
setInterval(() => undefined, 60_000);

function readPid(): string {
  try {
    return readFileSync(pidFile, 'utf8');
  } catch {
    return '';
  }
}
