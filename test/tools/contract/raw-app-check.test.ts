import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadApp } from '../../../src/tools/apps/load-app.js';
import { directContext } from '../../support/contract-api.js';

const folder = mkdtempSync(join(tmpdir(), 'toolseam-raw-check-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// A raw app that answers with exactly what its invoke was handed.
writeFileSync(
  join(folder, 'toolseam-app.json'),
  JSON.stringify({ name: 'raw', description: 'Raw.', entry: 'index.mjs' }),
);
writeFileSync(
  join(folder, 'index.mjs'),
  `export default {
    tools: [{ name: 'find_people', description: 'Finds people.', parameters: {
      type: 'object', additionalProperties: false, required: ['filter'],
      properties: { filter: { type: 'object', additionalProperties: false,
        properties: { email: { type: 'string' }, due_date: { type: 'string' } } } } } }],
    invoke: (name, args) => JSON.stringify(args),
  };`,
);

describe("a raw app's call is checked against its declared schema before its invoke runs", () => {
  it('reads JSON text and other key cases into the declared names', async () => {
    const app = await loadApp(folder);
    await app.listTools();
    const result = await app.invoke('find_people', { Filter: '{"dueDate": "2026-12-07"}' }, directContext());
    expect(JSON.parse(result.content)).toEqual({ filter: { due_date: '2026-12-07' } });
  });

  it('refuses an undeclared key and a missing required one, before and at the call', async () => {
    const app = await loadApp(folder);
    await app.listTools();
    const early = await app.preflight?.('find_people', { filter: { emails: 'a@b.test' } }, directContext());
    expect(early?.content).toMatch(
      /^filter\.emails: unknown field \(did you mean email\?\); filter takes: email, due_date/,
    );
    const late = await app.invoke('find_people', {}, directContext());
    expect(late).toMatchObject({
      isError: true,
      notRun: 'refused_by_tool',
      data: { problems: [{ path: 'filter', code: 'required' }] },
    });
  });
});
