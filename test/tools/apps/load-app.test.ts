import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppLoadError, readAppManifest } from '../../../src/tools/apps/app-manifest.js';
import { loadApp } from '../../../src/tools/apps/load-app.js';
import { toolContext } from '../../support/mcp-tool-context.js';

const examples = resolve(import.meta.dirname, '..', '..', '..', 'examples', 'apps');
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'toolseam-apps-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Writes an app folder with the given files and returns its path. */
async function app(name: string, files: Record<string, string>): Promise<string> {
  const folder = join(scratch, name);
  await mkdir(folder, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(folder, file), text);
  return folder;
}

const manifest = (entry = 'index.mjs', name = 'demo') =>
  JSON.stringify({ name, description: 'A demo app.', entry });

describe('installed apps', () => {
  it('loads an app written with field specs: offered schema, validation, declared refusal', async () => {
    const provider = await loadApp(join(examples, 'pocket-notes'));
    expect(provider).toMatchObject({ name: 'pocket-notes', app: 'pocket-notes', own: false });
    const tools = await provider.listTools();
    expect(tools.map((t) => t.name)).toEqual(['notes_save', 'notes_find']);
    const save = tools[0];
    expect(save?.group).toEqual({
      key: 'pocket-notes',
      own: false,
      purpose: 'Keeps short notes for this session and finds them again.',
    });
    expect(save?.parameters).toMatchObject({
      properties: { title: { maxLength: 80 } },
      required: ['title', 'text'],
    });
    expect(tools[1]).toMatchObject({ risk: 'safe', requiresApproval: false, readOnly: true });

    const ctx = toolContext();
    expect(
      await provider.invoke('notes_save', { title: 'Plants', text: 'Water them', pinned: 'yes' }, ctx),
    ).toEqual({
      content: 'Saved "Plants" (pinned).',
      isError: false,
    });
    expect((await provider.invoke('notes_find', { query: 'water' }, ctx)).content).toBe('Plants: Water them');
    const refused = await provider.preflight?.('notes_save', { title: '  ', text: 'x' }, ctx);
    expect(refused).toMatchObject({
      isError: true,
      notRun: 'refused_by_tool',
      hints: ['Give the note a title.'],
    });
    const tooLong = await provider.invoke('notes_save', { title: 'x'.repeat(81), text: 'y' }, ctx);
    expect(tooLong).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
    expect(tooLong.content).toContain('title');
  });

  it('loads an app written with raw JSON schemas, reading inputSchema as parameters', async () => {
    const provider = await loadApp(join(examples, 'unit-converter'));
    const tools = await provider.listTools();
    expect(tools.map((t) => t.name)).toEqual(['convert_length', 'convert_temperature']);
    expect(tools[1]?.parameters).toMatchObject({ required: ['value', 'to'] });
    expect(tools[0]?.group?.purpose).toBe('Converts lengths and temperatures between units.');
    const ctx = toolContext();
    expect(await provider.invoke('convert_length', { value: 1, from: 'km', to: 'm' }, ctx)).toEqual({
      content: '1 km = 1000 m',
      isError: false,
    });
    // The declared schema is checked first (its enum), before the app's own preflight is asked.
    expect(
      await provider.preflight?.('convert_length', { value: 1, from: 'league', to: 'm' }, ctx),
    ).toMatchObject({
      content: 'from: must be one of "mm", "cm", "m", "km", "in", "ft", "mi"',
      isError: true,
      notRun: 'refused_by_tool',
      data: { code: 'invalid_arguments', problems: [{ path: 'from', code: 'not_allowed' }] },
    });
    expect(
      await provider.preflight?.('convert_length', { value: 1, from: 'm', to: 'cm' }, ctx),
    ).toBeUndefined();
  });

  it('accepts an entry that exports a whole tool provider, renamed after the app', async () => {
    const folder = await app('whole', {
      'toolseam-app.json': manifest('index.mjs', 'whole'),
      'index.mjs': `export const provider = { name: 'inner', app: 'inner', own: true,
        async listTools() { return [{ name: 'hello', description: 'Greets.', parameters: { type: 'object', properties: {} }, risk: 'safe', requiresApproval: false }]; },
        async invoke(name) { return 'hi from ' + name; } };`,
    });
    const provider = await loadApp(folder);
    expect(provider).toMatchObject({ name: 'whole', app: 'whole', own: false });
    expect((await provider.listTools())[0]?.group?.key).toBe('whole');
    expect(await provider.invoke('hello', {}, toolContext())).toEqual({
      content: 'hi from hello',
      isError: false,
    });
  });

  it.each([
    ['no manifest', {}, /there is no toolseam-app\.json/],
    ['bad json', { 'toolseam-app.json': '{ nope' }, /is not valid JSON/],
    ['no name', { 'toolseam-app.json': '{"description":"x","entry":"i.mjs"}' }, /needs a non-blank "name"/],
    [
      'slash name',
      { 'toolseam-app.json': '{"name":"a/b","description":"x","entry":"i.mjs"}' },
      /must not contain "\/"/,
    ],
    ['no entry', { 'toolseam-app.json': '{"name":"n","description":"x"}' }, /needs an "entry"/],
    ['outside', { 'toolseam-app.json': manifest('../../etc/passwd') }, /points outside the app folder/],
    ['missing entry', { 'toolseam-app.json': manifest('gone.mjs') }, /"gone\.mjs" does not exist/],
    [
      'entry is the folder',
      { 'toolseam-app.json': manifest('.') },
      /the entry "\." is a folder; name the module file in it \(e\.g\. "index\.js"\)/,
    ],
    [
      'blank description',
      { 'toolseam-app.json': '{"name":"n","description":"  ","entry":"i.mjs"}' },
      /needs a "description" saying in one line what the app is for/,
    ],
    [
      'throws',
      { 'toolseam-app.json': manifest(), 'index.mjs': 'throw new Error("no config");' },
      /failed to load: no config/,
    ],
    ['syntax', { 'toolseam-app.json': manifest(), 'index.mjs': 'export const = ;' }, /failed to load/],
    [
      'empty',
      { 'toolseam-app.json': manifest(), 'index.mjs': 'export const x = 1;' },
      /exports no invoke function/,
    ],
    [
      'no list',
      { 'toolseam-app.json': manifest(), 'index.mjs': 'export function invoke() {}' },
      /no "tools" list/,
    ],
    [
      'function throws',
      {
        'toolseam-app.json': manifest(),
        'index.mjs': 'export default () => { throw new Error("needs a key"); };',
      },
      /failed to load: needs a key/,
    ],
    [
      'empty tools list',
      { 'toolseam-app.json': manifest(), 'index.mjs': 'export const tools = [];' },
      /exports an empty tools list/,
    ],
    [
      'mixed tools list',
      {
        'toolseam-app.json': manifest(),
        'index.mjs': `export default ({ toolkit: { defineTool } }) => ({ tools: [
          defineTool({ name: 'ok', description: 'Fine.', handler: () => 'x' }),
          { name: 'raw', description: 'Raw.', parameters: { type: 'object', properties: {} } },
        ] });`,
      },
      /mixes tools made with defineTool and tools\[1\] \("raw"\), which is not one/,
    ],
    [
      'bad field spec',
      {
        'toolseam-app.json': manifest(),
        'index.mjs': `export default ({ toolkit: { defineTool, field } }) => ({ tools: [defineTool({
          name: 'pick', description: 'Picks.', fields: { n: field.integer({ min: 5, max: 1 }) }, handler: () => 'x' })] });`,
      },
      /its tool pick is defined in a way that cannot work \(pick\.n: min is above max\); fix it in the entry module/,
    ],
  ])('records an app that cannot load (%s) as a failure with the reason', async (name, files, reason) => {
    const provider = await loadApp(await app(`broken-${name.replace(/ /g, '-')}`, files));
    const error = await provider.listTools().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppLoadError);
    expect((error as AppLoadError).message).toMatch(reason);
    const call = await provider.invoke('anything', {}, toolContext());
    expect(call).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
    expect(call.content).toMatch(reason);
  });

  it('says whether the folder is missing, a file, or only lacks its manifest', async () => {
    const why = async (folder: string) =>
      ((await (await loadApp(folder)).listTools().catch((e: unknown) => e)) as Error).message;
    expect(await why(join(scratch, 'never-made'))).toContain('the folder does not exist');
    await writeFile(join(scratch, 'plain-file'), 'x');
    expect(await why(join(scratch, 'plain-file'))).toContain('this is a file, not an app folder');
    expect(await why(await app('empty-folder', {}))).toContain('there is no toolseam-app.json');
  });

  it('serves the good tools of a raw app whose list also holds null and junk entries', async () => {
    const folder = await app('junk-entries', {
      'toolseam-app.json': manifest('index.mjs', 'junky'),
      'index.mjs': `export const tools = [
        { name: 'ping', description: 'Answers pong.', inputSchema: { type: 'object', properties: {} } },
        null,
        'junk',
      ];
      export async function invoke() { return { content: 'pong', isError: false }; }\n`,
    });
    const listed = await (await loadApp(folder)).listTools();
    expect(listed[0]).toMatchObject({ name: 'ping', group: { key: 'junky' } });
    expect(listed.slice(1)).toEqual([null, 'junk']);
  });

  it('says which file to name when the entry is a folder inside the app', async () => {
    const folder = await app('entry-folder', { 'toolseam-app.json': manifest('lib') });
    await mkdir(join(folder, 'lib'));
    const error = await (await loadApp(folder)).listTools().catch((e: unknown) => e);
    expect((error as Error).message).toContain(
      'the entry "lib" is a folder; name the module file in it (e.g. "lib/index.js").',
    );
  });

  it('names a broken app after its manifest when the manifest was readable', async () => {
    const folder = await app('named-broken', { 'toolseam-app.json': manifest('gone.mjs', 'calendar') });
    expect((await loadApp(folder)).name).toBe('calendar');
    await expect(readAppManifest(folder)).rejects.toMatchObject({ code: 'app_load_failed', app: 'calendar' });
  });
});

describe('an app that never finishes loading', () => {
  it('becomes a load failure after its time limit instead of holding up every tool', async () => {
    const folder = await app('stuck', {
      'toolseam-app.json': manifest('index.mjs', 'stuck'),
      // setup waits for something that never comes, and nothing keeps the process alive meanwhile
      'index.mjs': 'export default () => new Promise(() => {});\n',
    });
    const provider = await loadApp(folder, { loadTimeoutMs: 200 });
    const error = await provider.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppLoadError);
    expect((error as Error).message).toContain('did not finish within 200 ms');
  });
});
