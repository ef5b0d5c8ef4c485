import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadApp } from '../../../src/tools/apps/load-app.js';
import {
  ContractTestScope,
  contractAppCopy,
  contractFixture,
  directContext,
  startLoopbackApi,
} from '../../support/contract-api.js';

const ctx = directContext;

const scope = new ContractTestScope();
afterEach(() => scope.end());

/** An app folder holding `manifest` and, when given, `document` as api.json. */
function appFolder(manifest: Record<string, unknown>, document?: unknown): string {
  const folder = mkdtempSync(join(tmpdir(), 'toolseam-contract-load-'));
  scope.keep({ remove: () => rmSync(folder, { recursive: true, force: true }) });
  writeFileSync(
    join(folder, 'toolseam-app.json'),
    JSON.stringify({ name: 'api', description: 'An API.', ...manifest }),
  );
  if (document !== undefined) writeFileSync(join(folder, 'api.json'), JSON.stringify(document));
  return folder;
}

describe('loading a contract app', () => {
  it("an invalid document is the app's load failure", async () => {
    const folder = appFolder(
      { openapi: 'api.json' },
      { openapi: '3.1.0', info: { title: 't' }, paths: { '/a': { get: { responses: 'x' } } } },
    );
    const app = await loadApp(folder);
    expect(app.loadError?.message).toMatch(/^app "api": its OpenAPI document api\.json is not valid: /);
    await expect(app.listTools()).rejects.toThrow(/not valid/);
  });

  it('a broken document is refused naming each problem and where it is', async () => {
    const broken = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/a': { get: { respnses: {} } },
        '/b': {
          get: {
            parameters: [{ name: 'q', in: 'qury', schema: { type: 'string' } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    const app = await loadApp(appFolder({ openapi: 'api.json' }, broken));
    const said = app.loadError?.message ?? '';
    expect(said).toMatch(/^app "api": its OpenAPI document api\.json is not valid: /);
    expect(said).toContain('paths["/a"].get lacks "responses"');
    expect(said).toContain('paths["/a"].get has "respnses", which OpenAPI does not define there');
    expect(said).toContain(
      'paths["/b"].get.parameters[0].in is "qury", not one of path, query, header, cookie',
    );
  });

  it("a path's parameters are checked against its template; a Swagger 2.0 document is named as such", async () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/pets/{pet_id}': {
          get: {
            parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    const app = await loadApp(appFolder({ openapi: 'api.json' }, document));
    expect(app.loadError?.message).toContain(
      'GET /pets/{pet_id}: the path names {pet_id}, which no path parameter declares; GET /pets/{pet_id}: the path parameter petId is not in the path',
    );
    const swagger = await loadApp(
      appFolder({ openapi: 'api.json' }, { swagger: '2.0', info: { title: 't', version: '1' }, paths: {} }),
    );
    expect(swagger.loadError?.message).toMatch(
      /api\.json has no "openapi" version; only OpenAPI 3\.0 and 3\.1 documents become tools/,
    );
    // Unchecked on request: the document is taken as it is.
    const unchecked = await loadApp(
      appFolder({ openapi: 'api.json', validate: false, baseUrl: 'http://127.0.0.1:1' }, document),
    );
    expect(unchecked.loadError).toBeUndefined();
  });

  it('a document outside the folder, a bad auth and a missing document are refused with what to fix', async () => {
    expect((await loadApp(appFolder({ openapi: '../elsewhere.json' }))).loadError?.message).toMatch(
      /outside the app folder/,
    );
    const auth = await loadApp(appFolder({ openapi: 'api.json', auth: { type: 'oauth', secret: 'X' } }, {}));
    expect(auth.loadError?.message).toMatch(/"auth.type" is one of "bearer", "apiKey", "basic"/);
    expect((await loadApp(appFolder({ openapi: 'api.json' }))).loadError?.message).toMatch(
      /its OpenAPI document api\.json could not be read: api\.json does not exist in the app folder \/.+\.$/,
    );
  });

  it('"operations" globs pick the tools; the base URL falls back to the first server, its variables at their defaults', async () => {
    const copy = contractAppCopy('uspto', undefined, { operations: ['list-*'] });
    scope.keep(copy);
    const app = await loadApp(copy.folder);
    expect((await app.listTools()).map((t) => t.name)).toEqual(['list-data-sets', 'list-searchable-fields']);
    const { contractBaseUrl } = await import('../../../src/tools/apps/contract/contract-app.js');
    const document = {
      servers: [
        { url: '{scheme}://developer.uspto.gov/ds-api', variables: { scheme: { default: 'https' } } },
      ],
    };
    expect(
      contractBaseUrl(
        { openapi: 'x', headers: {}, timeoutMs: 1, maxResponseBytes: 1, validate: true, refHosts: [] },
        document,
      ).href,
    ).toBe('https://developer.uspto.gov/ds-api');
  });

  it('a header the config sets is not offered; a secret the config lacks refuses the call before it is sent', async () => {
    scope.api = await startLoopbackApi();
    const copy = contractAppCopy('billing', scope.api.url, { headers: { 'Idempotency-Key': 'fixed' } });
    scope.keep(copy);
    const app = await loadApp(copy.folder);
    const create = (await app.listTools()).find((t) => t.name === 'create_customer');
    expect(
      Object.keys((create?.parameters as { properties?: object } | undefined)?.properties ?? {}),
    ).not.toContain('Idempotency-Key');
    const result = await app.invoke('create_customer', { email: 'a@b.test' }, ctx());
    expect(result).toMatchObject({
      isError: true,
      notRun: 'refused_by_tool',
      data: { code: 'missing_secret' },
    });
    expect(result.content).toMatch(/BILLING_TOKEN/);
    expect(scope.api.received).toEqual([]);
  });

  it('a call past its deadline is a tool error, not an exception', async () => {
    scope.api = await startLoopbackApi(() => undefined);
    const copy = contractAppCopy('calendar', scope.api.url, { timeoutMs: 50 });
    scope.keep(copy);
    const app = await loadApp(copy.folder, { secrets: new Map([['CALENDAR_KEY', 'key-123456']]) });
    // POST is not tried again, so one deadline is all the test waits for.
    const result = await app.invoke('insertEvent', { calendarId: 'c', summary: 's', start: {} }, ctx());
    expect(result).toMatchObject({ isError: true, data: { code: 'request_failed' } });
    expect(result.content).toMatch(/^POST \/calendars\/c\/events: no answer within 50 ms/);
  });

  it('the committed fixtures load', async () => {
    for (const name of ['petstore', 'petstore3', 'uspto', 'billing', 'calendar']) {
      expect((await loadApp(contractFixture(name))).loadError).toBeUndefined();
    }
  });
});
