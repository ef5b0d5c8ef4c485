// A child process that runs one turn until it waits for approval, then waits to be killed.
// argv: <dbPath> <counterFile> <providerConfigJson>
import { appendFileSync } from 'node:fs';
import { createModelAdapter } from '../../src/providers/index.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { openSessionStore } from '../../src/store/index.js';
import { defineTool, field, inProcessProvider } from '../../src/tools/index.js';
import { createToolRegistry } from '../../src/tools/registry/tool-registry.js';

const [dbPath, counterFile, configJson] = process.argv.slice(2) as [string, string, string];

/** The tool whose runs the crash test counts: each run appends one line to the counter file. */
export function counterProvider(file: string) {
  const append = defineTool({
    name: 'append_line',
    description: 'Append a line to the log file.',
    risk: 'caution',
    fields: { text: field.string({ maxLength: 200 }) },
    handler: (a) => {
      appendFileSync(file, `${a.text}\n`);
      return `appended ${a.text}`;
    },
  });
  return inProcessProvider({ name: 'counter', tools: [append] });
}

if (dbPath && counterFile && configJson) {
  const store = openSessionStore({ path: dbPath });
  const registry = createToolRegistry();
  registry.register(counterProvider(counterFile));
  const runtime = new Runtime({ model: createModelAdapter(JSON.parse(configJson)), registry, store });
  for await (const event of await (await runtime.session('crash-session')).send('append hello')) {
    if (event.type === 'approval-request') process.stdout.write(`WAITING ${event.request.id}\n`);
  }
}
