import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/core/json.js';
import { contractBoundary } from '../../../src/tools/apps/contract/contract-arguments.js';
import { contractOperations, operationName } from '../../../src/tools/apps/contract/contract-operations.js';

const doc = (version: string, paths: JsonObject): JsonObject => ({
  openapi: version,
  info: { title: 't', version: '1' },
  paths,
});
const json = (schema: JsonObject, required = true): JsonObject => ({
  required,
  content: { 'application/json': { schema } },
});

describe('an operation becomes a tool', () => {
  it('is named by its operationId, else by method and path; described by summary then description', () => {
    const [named, unnamed] = contractOperations(
      doc('3.1.0', {
        '/a/{b}': {
          get: {
            operationId: 'getA',
            summary: 'Gets an A.',
            description: 'More words.',
            parameters: [{ name: 'b', in: 'path', schema: { type: 'string' } }],
          },
          put: {},
        },
      }),
    );
    expect(named).toMatchObject({ name: 'getA', method: 'GET', description: 'Gets an A.\n\nMore words.' });
    expect(named?.parameters).toMatchObject({ required: ['b'], additionalProperties: false });
    expect(unnamed?.name).toBe('put_a_b');
    expect(operationName('delete', '/users/{user_id}/keys')).toBe('delete_users_user_id_keys');
  });

  it("a body's keys sit beside the parameters, unless one folds to a parameter's name: then the body is one argument", () => {
    const body = { type: 'object', properties: { userId: { type: 'string' }, note: { type: 'string' } } };
    const [spread, kept] = contractOperations(
      doc('3.1.0', {
        '/x': {
          post: {
            operationId: 'spread',
            requestBody: json({ type: 'object', properties: { note: { type: 'string' } } }),
          },
        },
        '/y/{user_id}': {
          post: {
            operationId: 'kept',
            parameters: [{ name: 'user_id', in: 'path', schema: { type: 'string' } }],
            requestBody: json(body),
          },
        },
      }),
    );
    expect(Object.keys(spread?.parameters.properties as object)).toEqual(['note']);
    expect(Object.keys(kept?.parameters.properties as object)).toEqual(['user_id', 'body']);
    expect(kept?.slots.get('body')).toEqual({ in: 'body', name: 'body' });
  });

  it('3.0 nullable becomes a null type; 3.1 null types stay; readOnly keys leave requests', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string', nullable: true },
        b: { type: 'string', enum: ['x'], nullable: true },
        c: { type: ['integer', 'null'] },
        id: { type: 'string', readOnly: true },
      },
    };
    const [three] = contractOperations(
      doc('3.0.3', { '/z': { post: { operationId: 'z', requestBody: json(schema) } } }),
    );
    expect(three?.parameters.properties).toEqual({
      a: { type: ['string', 'null'] },
      b: { type: ['string', 'null'], enum: ['x', null] },
      c: { type: ['integer', 'null'] },
    });
    const [one] = contractOperations(
      doc('3.1.0', { '/z': { post: { operationId: 'z', requestBody: json(schema) } } }),
    );
    // In 3.1 `nullable` is no keyword: it is dropped, not read.
    expect((one?.parameters.properties as JsonObject | undefined)?.a).toEqual({ type: 'string' });
  });

  it('a shape that contains itself is hoisted to $defs once, and the boundary reads it at any depth', () => {
    const node: Record<string, unknown> = {
      type: 'object',
      title: 'node',
      properties: { label: { type: 'string' } },
    };
    (node.properties as Record<string, unknown>).child_nodes = { type: 'array', items: node };
    const [op] = contractOperations(
      doc('3.1.0', {
        '/t': {
          post: {
            operationId: 't',
            requestBody: json({ type: 'object', properties: { root_node: node } } as JsonObject),
          },
        },
      }),
    );
    const parameters = op?.parameters as JsonObject;
    expect(parameters.properties).toEqual({ root_node: { $ref: '#/$defs/node' } });
    expect(parameters.$defs).toMatchObject({
      node: { properties: { child_nodes: { items: { $ref: '#/$defs/node' } } } },
    });
    const boundary = contractBoundary('t', parameters);
    const read = boundary.read({
      rootNode: { label: 'a', childNodes: '[{"Label": "b", "child_nodes": [{"label": "c"}]}]' },
    });
    expect(read).toEqual({
      ok: true,
      args: { root_node: { label: 'a', child_nodes: [{ label: 'b', child_nodes: [{ label: 'c' }] }] } },
    });
    const wrong = boundary.read({ root_node: { child_nodes: [{ child_nodes: [{ lable: 'x' }] }] } });
    expect(wrong).toMatchObject({
      ok: false,
      problems: [{ path: 'root_node.child_nodes[0].child_nodes[0].lable', code: 'unknown_argument' }],
    });
    if (!wrong.ok) expect(wrong.problems[0]?.message).toMatch(/did you mean label\?/);
  });

  it('allOf of object shapes is merged and closed as one (each closed alone would refuse the others’ keys)', () => {
    const [op] = contractOperations(
      doc('3.0.0', {
        '/p': {
          post: {
            operationId: 'p',
            requestBody: json({
              allOf: [
                { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
                { type: 'object', properties: { id: { type: 'integer' } } },
              ],
            }),
          },
        },
      }),
    );
    const boundary = contractBoundary('p', op?.parameters as JsonObject);
    expect(boundary.read({ name: 'a', id: 1 })).toEqual({ ok: true, args: { name: 'a', id: 1 } });
    expect(boundary.read({ name: 'a', idd: 1 })).toMatchObject({ ok: false });
  });

  it('yes/no words and numbers written as text are read as the boolean or number declared, before the check', () => {
    const boundary = contractBoundary('notify', {
      type: 'object',
      additionalProperties: false,
      properties: {
        send_email: { type: 'boolean' },
        max_count: { type: 'integer' },
        ratio: { type: ['number', 'null'] },
        label: { type: 'string' },
      },
    });
    expect(boundary.read({ sendEmail: 'Yes', maxCount: '3', ratio: '0.5', label: '7' })).toEqual({
      ok: true,
      args: { send_email: true, max_count: 3, ratio: 0.5, label: '7' },
    });
    expect(boundary.read({ send_email: 'maybe', max_count: '2.5' })).toMatchObject({
      ok: false,
      problems: [
        { path: 'send_email', code: 'wrong_type' },
        { path: 'max_count', code: 'wrong_type' },
      ],
    });
  });
});
