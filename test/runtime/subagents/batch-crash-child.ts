// A child process that starts a subagent batch (one leaf at a time) and reports its leaves' progress on
// stdout; the crash test kills it while the second leaf waits for approval.
// argv: <dbPath> <counterFile> <providerConfigJson>
import { appendFileSync } from 'node:fs';
import { createModelAdapter } from '../../../src/providers/index.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { enableSubagents } from '../../../src/runtime/subagents/index.js';
import { openSessionStore } from '../../../src/store/index.js';
import { defineTool, field, inProcessProvider } from '../../../src/tools/index.js';
import { createToolRegistry } from '../../../src/tools/registry/tool-registry.js';

/** Two tools that append a line to `file`: `note_line` runs at once, `append_line` asks first. */
export function lineProvider(file: string) {
  const tool = (name: string, risk: 'safe' | 'caution') =>
    defineTool({
      name,
      description: `Append a line to the log file (${risk === 'safe' ? 'without asking' : 'after asking'}).`,
      risk,
      fields: { text: field.string({ maxLength: 200 }) },
      handler: (a) => {
        appendFileSync(file, `${a.text}\n`);
        return `appended ${a.text}`;
      },
    });
  return inProcessProvider({
    name: 'lines',
    tools: [tool('note_line', 'safe'), tool('append_line', 'caution')],
  });
}

const [dbPath, counterFile, configJson] = process.argv.slice(2);

if (dbPath && counterFile && configJson && process.env['TOOLSEAM_BATCH_CRASH_CHILD'] === '1') {
  const store = openSessionStore({ path: dbPath });
  const registry = createToolRegistry();
  registry.register(lineProvider(counterFile));
  const runtime = new Runtime({ model: createModelAdapter(JSON.parse(configJson)), registry, store });
  enableSubagents(runtime, { concurrency: 1 });
  for await (const event of await (await runtime.session('crash-parent')).send('the morning round')) {
    if (event.type === 'leaf') process.stdout.write(`LEAF ${event.title} ${event.state}\n`);
    if (event.type === 'approval-request') process.stdout.write(`WAITING ${event.request.id}\n`);
  }
}
