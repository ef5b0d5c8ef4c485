import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/core/json.js';
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

describe("a raw tool's schema is checked by the draft its $schema names", () => {
  const drafted = mkdtempSync(join(tmpdir(), 'toolseam-raw-drafts-'));
  afterAll(() => rmSync(drafted, { recursive: true, force: true }));
  writeFileSync(
    join(drafted, 'toolseam-app.json'),
    JSON.stringify({ name: 'drafts', description: 'Drafts.', entry: 'index.mjs' }),
  );
  // draft-04: a boolean exclusiveMaximum; draft-07: definitions; an unknown $schema: read as 2020-12.
  writeFileSync(
    join(drafted, 'index.mjs'),
    `const tool = (name, parameters) => ({ name, description: 'A tool.', parameters });
    export default {
      tools: [
        tool('old_rate', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object',
          properties: { rate: { type: 'number', maximum: 1, exclusiveMaximum: true } }, required: ['rate'] }),
        tool('seven', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object',
          definitions: { size: { type: 'string', enum: ['s', 'm'] } },
          properties: { size: { $ref: '#/definitions/size' } }, additionalProperties: false }),
        tool('odd', { $schema: 'https://example.test/my-dialect', type: 'object',
          properties: { count: { type: 'integer' } } }),
      ],
      invoke: (name, args) => JSON.stringify(args),
    };`,
  );

  it('refuses what the named draft refuses, and takes what it takes', async () => {
    const app = await loadApp(drafted);
    await app.listTools();
    const at = (name: string, args: JsonObject) => app.invoke(name, args, directContext());
    expect((await at('old_rate', { rate: 0.5 })).content).toBe('{"rate":0.5}');
    expect(await at('old_rate', { rate: 1 })).toMatchObject({
      notRun: 'refused_by_tool',
      data: { problems: [{ path: 'rate', code: 'too_large' }] },
    });
    expect((await at('seven', { Size: 'm' })).content).toBe('{"size":"m"}');
    expect(await at('seven', { size: 'xl' })).toMatchObject({
      data: { problems: [{ path: 'size', code: 'not_allowed' }] },
    });
    expect(await at('odd', { count: 'many' })).toMatchObject({
      data: { problems: [{ path: 'count', code: 'wrong_type' }] },
    });
  });
});
