import { describe, expect, it } from 'vitest';
import {
  defineTool,
  field,
  inProcessProvider,
  makeToolContext,
  ToolDefinitionError,
} from '../../../src/tools/index.js';

const ctx = makeToolContext();

/** A tool whose handler returns `output` as it is, as a JavaScript handler may. */
const returning = (output: unknown) =>
  defineTool({
    name: 'lookup',
    description: 'Looks something up.',
    risk: 'safe',
    handler: () => output as never,
  });

describe("a handler's output", () => {
  it.each([
    ['nothing (a forgotten return)', undefined, 'its handler returned nothing'],
    ['a number', 42, 'its handler returned the number 42'],
    ['an object without text', { temperature: 20 }, 'its handler returned an object without text "content"'],
  ])('that is %s comes back as an error result naming the tool', async (_what, output, told) => {
    const tool = returning(output);
    const result = await tool.run({}, ctx);
    expect(result).toEqual({
      content: `lookup failed: ${told}; a handler returns text, or {content, isError}.`,
      isError: true,
      data: { code: 'bad_handler_output' },
    });
    const provider = inProcessProvider({ name: 'demo', tools: [tool] });
    expect(await provider.invoke('lookup', {}, ctx)).toEqual(result);
  });

  it('that is text or a result is the result', async () => {
    expect(await returning('Sunny.').run({}, ctx)).toEqual({ content: 'Sunny.', isError: false });
    const whole = { content: 'Nothing found.', isError: true, hints: ['Try another city.'] };
    expect(await returning(whole).run({}, ctx)).toEqual(whole);
  });
});

describe('a tool definition a JavaScript app gets wrong', () => {
  it('is refused when defineTool is given no object', () => {
    const define = () => defineTool(undefined as never);
    expect(define).toThrow(ToolDefinitionError);
    expect(define).toThrow(
      '(nameless tool): defineTool takes one object: { name, description, fields, handler }',
    );
  });

  it('is refused when its preflight is not a function, before any call', () => {
    const define = () =>
      defineTool({
        name: 'lookup',
        description: 'Looks up.',
        preflight: 'no blanks' as never,
        handler: () => 'x',
      });
    expect(define).toThrow(ToolDefinitionError);
    expect(define).toThrow(
      'lookup: preflight is a function of the arguments that returns a refusal or nothing',
    );
  });
});

const plainHandler = () => 'done';

describe('defineTool: read-only and risk', () => {
  it('leaves a safe tool that does not say it only reads out of plan mode', () => {
    const tool = defineTool({
      name: 'note_save',
      description: 'Save a note.',
      risk: 'safe',
      handler: plainHandler,
    });
    expect(tool.definition.readOnly).toBeUndefined();
    const reader = defineTool({
      name: 'note_find',
      description: 'Find a note.',
      risk: 'safe',
      readOnly: true,
      handler: plainHandler,
    });
    expect(reader.definition.readOnly).toBe(true);
  });

  it('refuses a read-only tool declared destructive', () => {
    const define = () =>
      defineTool({
        name: 'wipe',
        description: 'Wipe.',
        risk: 'destructive',
        readOnly: true,
        handler: plainHandler,
      });
    expect(define).toThrow(ToolDefinitionError);
    expect(define).toThrow('a read-only tool changes nothing, so it cannot be destructive');
  });
});

describe('grantScope: which later calls an "always" answer covers', () => {
  const spec = {
    name: 'send',
    description: 'Sends a message.',
    fields: { to: field.string(), body: field.string(), count: field.integer() },
    handler: () => 'sent',
  };

  it('declares the arguments, the shell command or the path argument that make up the scope', () => {
    expect(defineTool({ ...spec, grantScope: ['to'] }).definition.grantScope).toEqual({
      kind: 'arguments',
      names: ['to'],
    });
    expect(defineTool({ ...spec, grantScope: [] }).definition.grantScope).toEqual({
      kind: 'arguments',
      names: [],
    });
    expect(defineTool({ ...spec, grantScope: { command: 'body' } }).definition.grantScope).toEqual({
      kind: 'command',
      argument: 'body',
    });
    expect(defineTool({ ...spec, grantScope: { folderOf: 'to' } }).definition.grantScope).toEqual({
      kind: 'folder',
      argument: 'to',
    });
    expect(defineTool(spec).definition.grantScope).toBeUndefined();
  });

  it.each([
    [['nobody'], /grantScope names "nobody", which is not one of the tool's fields/],
    [{ command: 'count' }, /grantScope names "count", which is not one of the tool's text fields/],
    [{ folderOf: 'missing' }, /not one of the tool's text fields/],
    [
      { command: 'to', folderOf: 'to' },
      /grantScope is a list of argument names, \{ command: name \} or \{ folderOf: name \}/,
    ],
    ['to', /grantScope is a list of argument names/],
  ])('refuses %j, saying what it takes', (grantScope, message) => {
    expect(() => defineTool({ ...spec, grantScope: grantScope as never })).toThrow(ToolDefinitionError);
    expect(() => defineTool({ ...spec, grantScope: grantScope as never })).toThrow(message);
  });
});
