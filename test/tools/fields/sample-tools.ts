import { defineTool, field } from '../../../src/tools/index.js';

/** Records what handlers and preflights saw, so tests can tell what ran. */
export const seen: { calls: Array<{ tool: string; args: unknown }>; checks: number } = {
  calls: [],
  checks: 0,
};

/** A Stripe-style tool: its author wrote snake_case, nested objects included. */
export const listCustomers = defineTool({
  name: 'list_customers',
  description: 'Lists customers, optionally filtered by email and creation date.',
  risk: 'safe',
  readOnly: true,
  fields: {
    email: field.string({ description: 'Exact email address.', maxLength: 320, optional: true }),
    limit: field.integer({ description: 'How many to return.', min: 1, max: 100, default: 10 }),
    created: field.object(
      { greater_than: field.integer({ optional: true }), less_than: field.integer({ optional: true }) },
      { optional: true },
    ),
    expand_fields: field.list(field.string({ maxLength: 40 }), { maxItems: 5, optional: true }),
  },
  handler(args) {
    seen.calls.push({ tool: 'list_customers', args });
    return `listed ${args.limit}`;
  },
});

/** A Gmail-style tool: its author wrote camelCase, with a nested object. */
export const createEvent = defineTool({
  name: 'create_event',
  description: 'Creates a calendar event.',
  fields: {
    summary: field.string({ maxLength: 200 }),
    start: field.object({ dateTime: field.string(), timeZone: field.string({ optional: true }) }),
    attendees: field.list(field.object({ email: field.string(), optional: field.boolean({ safe: false }) }), {
      maxItems: 20,
      optional: true,
    }),
    sendUpdates: field.string({ enum: ['none', 'all', 'externalOnly'], default: 'none' }),
  },
  handler(args) {
    seen.calls.push({ tool: 'create_event', args });
    return `created ${args.summary}`;
  },
});

/** A tool carrying a free-form value as JSON text, a yes/no switch with no safe value, and consent. */
export const automationCreate = defineTool({
  name: 'automation_create',
  description: 'Creates an automation from a spec.',
  risk: 'destructive',
  fields: {
    spec: field.json({ description: 'The automation spec.', shape: 'object' }),
    catch_up: field.boolean({ description: 'Run missed occurrences.', safe: false }),
    ignore_case: field.boolean({ optional: true }),
    confirm: field.consent({ description: 'Confirms creating it.' }),
  },
  handler(args) {
    seen.calls.push({ tool: 'automation_create', args });
    return 'created';
  },
});

/** The reference's image tool: one required prompt of at most 500 characters. */
export const imageGenerate = defineTool({
  name: 'image_generate',
  description: 'Generates an image from a prompt.',
  fields: {
    prompt: field.string({ description: 'What to draw.', maxLength: 500, minLength: 1 }),
    edit: field.boolean({ safe: false }),
    size: field.string({ enum: ['1024x1024', '512x512', '', '256x256'], default: '' }),
    count: field.integer({ min: 1, max: 4, optional: true }),
    quality: field.number({ min: 0, max: 1, optional: true }),
  },
  handler: () => 'drawn',
});

/** The reference's notify tool: two text fields, nothing else. */
export const notify = defineTool({
  name: 'notify',
  description: 'Sends the owner a notification.',
  fields: {
    text: field.string({ maxLength: 4000 }),
    title: field.string({ maxLength: 120, optional: true }),
  },
  handler: () => 'sent',
});

/** A tool whose preflight declares what its handler refuses (a folder outside the workspace). */
export const archiveFolder = defineTool({
  name: 'archive_folder',
  description: 'Archives a folder of the workspace.',
  risk: 'destructive',
  fields: { folder: field.string({ maxLength: 200, pattern: /^[\w./-]+$/ }) },
  preflight(args) {
    seen.checks += 1;
    if (args.folder.startsWith('/') || args.folder.includes('..')) {
      return {
        message: `the folder '${args.folder}' is not one this tool reaches`,
        hints: ['Pick a folder inside the workspace.'],
      };
    }
    return undefined;
  },
  handler(args) {
    seen.calls.push({ tool: 'archive_folder', args });
    return `archived ${args.folder}`;
  },
});

/** A tool that takes no arguments. */
export const memoryList = defineTool({
  name: 'memory_list',
  description: 'Lists saved memories.',
  risk: 'safe',
  core: true,
  handler: () => 'nothing saved yet',
});

/** Every tool the boundary's tests define (the portability rail and the census run over all of them). */
export const sampleTools = [
  listCustomers,
  createEvent,
  automationCreate,
  imageGenerate,
  notify,
  archiveFolder,
  memoryList,
];
