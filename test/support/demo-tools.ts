import { defineTool, field, inProcessProvider } from '../../src/tools/index.js';

/** Counts of how often each demo tool's handler ran. */
export type RunCounts = Map<string, number>;

/** A small set of in-process tools for runtime tests: one safe, two that ask (one with a declared refusal). */
export function demoProvider(counts: RunCounts = new Map()) {
  const ran = (name: string): void => {
    counts.set(name, (counts.get(name) ?? 0) + 1);
  };
  const weather = defineTool({
    name: 'lookup_weather',
    description: 'Look up the weather forecast for a city.',
    risk: 'safe',
    readOnly: true,
    fields: { city: field.string({ maxLength: 80 }) },
    handler: (args) => {
      ran('lookup_weather');
      return `Sunny in ${args.city}.`;
    },
  });
  const send = defineTool({
    name: 'send_email',
    description: 'Send an email to one person.',
    risk: 'caution',
    fields: { to: field.string({ maxLength: 200 }), body: field.string({ maxLength: 2000 }) },
    // "always" covers mail to the same person, whatever it says
    grantScope: ['to'],
    preflight: (args) =>
      args.to.endsWith('@blocked.example')
        ? { message: `the address ${args.to} is on the blocked list`, hints: ['Pick another recipient.'] }
        : undefined,
    handler: (args) => {
      ran('send_email');
      return `sent to ${args.to}`;
    },
  });
  const archive = defineTool({
    name: 'archive_mail',
    description: 'Archive an email by id.',
    risk: 'destructive',
    fields: { id: field.integer({ min: 1 }) },
    handler: (args) => {
      ran('archive_mail');
      return `archived ${args.id}`;
    },
  });
  return inProcessProvider({
    name: 'demo',
    app: 'demo-app',
    group: { key: 'demo', own: false, purpose: 'Mail and weather for tests.' },
    tools: [weather, send, archive],
  });
}

/** `n` tools of one MCP-like group (`manage_parcel_<i>`), so that most are deferred to the catalog. */
export function parcelTools(n: number) {
  return inProcessProvider({
    name: 'mcp/bulk',
    group: { key: 'mcp/bulk', own: false, purpose: '' },
    tools: Array.from({ length: n }, (_, i) =>
      defineTool({
        name: `manage_parcel_${i}`,
        description: `Manage parcel records number ${i}.`,
        risk: 'safe',
        fields: { id: field.string({ maxLength: 40 }) },
        handler: (a) => `${i}:${a.id}`,
      }),
    ),
  });
}
