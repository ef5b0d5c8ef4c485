import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppToolProvider, loadApp } from '../../../src/tools/apps/load-app.js';
import {
  contractFixture,
  directContext,
  type LoopbackApi,
  startLoopbackApi,
} from '../../support/contract-api.js';

const opened: LoopbackApi[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const api of opened.splice(0)) await api.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A loopback server answering each path from `files` (JSON), 404 otherwise. */
async function serving(files: Record<string, unknown>): Promise<LoopbackApi> {
  const api = await startLoopbackApi((r) => {
    const body = files[r.url];
    return body === undefined ? { status: 404, body: { message: 'no such file' } } : { status: 200, body };
  });
  opened.push(api);
  return api;
}

/** An app folder (inside a parent folder that also holds `outside.json`) with `manifest` and `files`. */
function appFolder(manifest: Record<string, unknown>, files: Record<string, unknown>): string {
  const root = mkdtempSync(join(tmpdir(), 'toolseam-contract-sources-'));
  folders.push(root);
  const folder = join(root, 'app');
  mkdirSync(join(folder, 'schemas'), { recursive: true });
  writeFileSync(join(root, 'outside.json'), JSON.stringify({ type: 'object', properties: {} }));
  writeFileSync(
    join(folder, 'toolseam-app.json'),
    JSON.stringify({ name: 'api', description: 'An API.', baseUrl: 'http://127.0.0.1:1', ...manifest }),
  );
  for (const [name, value] of Object.entries(files)) writeFileSync(join(folder, name), JSON.stringify(value));
  return folder;
}

/** A one-operation document whose body schema is `schema` (a `$ref` to test). */
function documentWithBody(schema: unknown): unknown {
  return {
    openapi: '3.1.0',
    info: { title: 'refs', version: '1' },
    paths: {
      '/notes': {
        post: {
          operationId: 'create_note',
          requestBody: { required: true, content: { 'application/json': { schema } } },
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  };
}

const note = {
  type: 'object',
  required: ['note_text'],
  properties: { note_text: { type: 'string' }, tag: { $ref: 'tag.json' } },
};
const tag = { type: 'string', enum: ['red', 'blue'] };

async function properties(app: AppToolProvider): Promise<unknown> {
  const [tool] = await app.listTools();
  return (tool?.parameters as { properties?: unknown } | undefined)?.properties;
}

describe('where a contract document and its $refs may come from', () => {
  it('a document at a URL is fetched, and its $refs on the same origin, each once', async () => {
    const petstore = JSON.parse(
      readFileSync(join(contractFixture('petstore'), 'petstore-expanded.json'), 'utf8'),
    ) as Record<string, unknown>;
    const docs = await serving({
      '/specs/petstore.json': petstore,
      '/specs/notes.json': documentWithBody({ $ref: 'schemas/note.json' }),
      '/specs/schemas/note.json': note,
      '/specs/schemas/tag.json': tag,
    });
    const pets = await loadApp(appFolder({ openapi: `${docs.url}/specs/petstore.json` }, {}));
    expect(pets.loadError).toBeUndefined();
    expect((await pets.listTools()).map((t) => t.name).sort()).toEqual([
      'addPet',
      'deletePet',
      'find pet by id',
      'findPets',
    ]);
    const notes = await loadApp(appFolder({ openapi: `${docs.url}/specs/notes.json` }, {}));
    expect(notes.loadError).toBeUndefined();
    expect(await properties(notes)).toEqual({
      note_text: { type: 'string' },
      tag: { type: 'string', enum: ['red', 'blue'] },
    });
    // Each source was fetched once, the document included.
    expect(docs.received.map((r) => r.url).filter((u) => !u.includes('petstore'))).toEqual([
      '/specs/notes.json',
      '/specs/schemas/note.json',
      '/specs/schemas/tag.json',
    ]);
  });

  it("a fetched document's relative server URL is read from where it was served", async () => {
    // The published document names its server in full; here it names it as a path, as many documents do.
    const yaml = readFileSync(join(contractFixture('petstore3'), 'openapi.yaml'), 'utf8').replace(
      'url: https://petstore3.swagger.io/api/v3',
      'url: /api/v3',
    );
    const docs = await serving({ '/pets/openapi.yaml': yaml, '/api/v3/store/inventory': { sold: 2 } });
    const folder = appFolder({ openapi: `${docs.url}/pets/openapi.yaml` }, {});
    const manifest = join(folder, 'toolseam-app.json');
    const { baseUrl: _none, ...rest } = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    writeFileSync(manifest, JSON.stringify(rest));
    const app = await loadApp(folder);
    expect(app.loadError).toBeUndefined();
    const result = await app.invoke('getInventory', {}, directContext());
    expect(result.content).toBe('HTTP 200 OK\n{"sold":2}');
  });

  it('a fetched document may not refer to another host unless "refHosts" names it, nor to a local file', async () => {
    const other = await serving({ '/tag.json': tag });
    const host = new URL(other.url).host;
    const docs = await serving({
      '/far.json': documentWithBody({ $ref: `${other.url}/tag.json` }),
      '/local.json': documentWithBody({ $ref: 'file:///etc/hostname' }),
    });
    const refused = await loadApp(appFolder({ openapi: `${docs.url}/far.json` }, {}));
    expect(refused.loadError?.message).toMatch(
      new RegExp(
        `could not be read: its document refers to ${other.url}/tag\\.json; \\$refs are fetched only from .*"refHosts"; add ${host} there`,
      ),
    );
    expect(other.received).toEqual([]);
    const listed = await loadApp(appFolder({ openapi: `${docs.url}/far.json`, refHosts: [host] }, {}));
    expect(listed.loadError).toBeUndefined();
    expect(await properties(listed)).toEqual({ body: { type: 'string', enum: ['red', 'blue'] } });
    const local = await loadApp(appFolder({ openapi: `${docs.url}/local.json` }, {}));
    expect(local.loadError?.message).toMatch(
      /refers to the local file \/etc\/hostname; a fetched document may refer to URLs only/,
    );
  });

  it('a document in the app folder refers to files in it; a file outside it or an unlisted URL is refused', async () => {
    const inside = appFolder(
      { openapi: 'api.json' },
      {
        'api.json': documentWithBody({ $ref: 'schemas/note.json' }),
        'schemas/note.json': note,
        'schemas/tag.json': tag,
      },
    );
    const app = await loadApp(inside);
    expect(app.loadError).toBeUndefined();
    expect(await properties(app)).toMatchObject({ tag: { enum: ['red', 'blue'] } });
    const outside = await loadApp(
      appFolder({ openapi: 'api.json' }, { 'api.json': documentWithBody({ $ref: '../outside.json' }) }),
    );
    expect(outside.loadError?.message).toMatch(
      /refers to \/.*\/outside\.json, outside the app folder; keep every file a \$ref names inside it/,
    );
    const far = await serving({ '/tag.json': tag });
    const fetched = await loadApp(
      appFolder({ openapi: 'api.json' }, { 'api.json': documentWithBody({ $ref: `${far.url}/tag.json` }) }),
    );
    expect(fetched.loadError?.message).toMatch(/\$refs are fetched only from the hosts in "refHosts"/);
    expect(far.received).toEqual([]);
  });

  it('a schema in a referred file is checked against the OpenAPI schema like the document itself', async () => {
    const folder = appFolder(
      { openapi: 'api.json' },
      {
        'api.json': {
          openapi: '3.1.0',
          info: { title: 'refs', version: '1' },
          paths: { '/a': { $ref: 'schemas/path.json' } },
        },
        'schemas/path.json': { get: { operationId: 'get_a', responses: { '200': { descripton: 'ok' } } } },
      },
    );
    const app = await loadApp(folder);
    expect(app.loadError?.message).toMatch(/is not valid: .*lacks "description"/);
  });
});
