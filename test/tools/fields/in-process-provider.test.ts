import { describe, expect, it } from 'vitest';
import {
  defineTool,
  field,
  inProcessProvider,
  makeToolContext,
  ToolDefinitionError,
} from '../../../src/tools/index.js';
import { archiveFolder, imageGenerate, notify, sampleTools, seen } from './sample-tools.js';

const group = { key: 'samples', own: true, purpose: 'Tools the boundary tests define.' };
const provider = inProcessProvider({ name: 'samples', own: true, group, tools: sampleTools });
const ctx = makeToolContext();

describe('an in-process provider built from defined tools', () => {
  it('lists every tool with its offered schema as parameters', async () => {
    const listed = await provider.listTools();
    expect(listed.map((t) => t.name)).toEqual(sampleTools.map((t) => t.name));
    const image = listed.find((t) => t.name === 'image_generate');
    expect(image?.parameters).toBe(imageGenerate.parameters);
    expect(image).toMatchObject({
      description: 'Generates an image from a prompt.',
      risk: 'caution',
      requiresApproval: true,
      group,
    });
    expect(provider).toMatchObject({ name: 'samples', app: 'samples', own: true });
  });

  it('runs a call: validation, then the handler with the declared names', async () => {
    seen.calls.length = 0;
    const result = await provider.invoke('archive_folder', { Folder: 'notes/2024' }, ctx);
    expect(result).toEqual({ content: 'archived notes/2024', isError: false });
    expect(seen.calls).toEqual([{ tool: 'archive_folder', args: { folder: 'notes/2024' } }]);
  });

  it('answers a call with unfit arguments with an error result, not an exception', async () => {
    const result = await provider.invoke('notify', { text: 'hi', colour: 'red' }, ctx);
    expect(result).toMatchObject({
      isError: true,
      content: 'colour: unknown argument; notify takes: text, title',
    });
  });

  it('refuses a prompt over its length before anyone is asked (the reference image case)', async () => {
    const refusal = await provider.preflight('image_generate', { prompt: 'x'.repeat(600) }, ctx);
    expect(refusal).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
    expect(refusal?.content).toBe('prompt: is 600 characters long; the most it takes is 500');
    expect(await provider.preflight('image_generate', { prompt: 'a small cat' }, ctx)).toBeUndefined();
  });

  it('declares the tool’s own refusal in preflight, from the same check its invoke runs first', async () => {
    seen.calls.length = 0;
    seen.checks = 0;
    const args = { folder: '../Taxes' };
    const declared = await provider.preflight('archive_folder', args, ctx);
    expect(declared).toEqual({
      content: "the folder '../Taxes' is not one this tool reaches",
      isError: true,
      notRun: 'refused_by_tool',
      hints: ['Pick a folder inside the workspace.'],
    });
    expect(seen.checks).toBe(1);
    const invoked = await provider.invoke('archive_folder', args, ctx);
    expect(invoked).toEqual(declared);
    expect(seen.checks).toBe(2);
    expect(seen.calls).toEqual([]);
  });

  it('runs a pattern check locally even though the pattern is never offered', async () => {
    const result = await archiveFolder.run({ folder: 'notes; rm -rf' }, ctx);
    expect(result.content).toBe(
      'folder: "notes; rm -rf" does not have the expected form (pattern ^[\\w./-]+$)',
    );
  });

  it('refuses nothing in preflight for a tool it does not serve, and says so on invoke', async () => {
    expect(await provider.preflight('nope', {}, ctx)).toBeUndefined();
    const result = await provider.invoke('nope', {}, ctx);
    expect(result).toMatchObject({ isError: true, data: { code: 'unknown_tool' } });
    expect(result.content).toMatch(/^nope is not a tool of samples; it serves list_customers, /);
  });

  it('turns a handler that throws into an error result the model can read', async () => {
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails.',
      handler: () => {
        throw new Error('the disk is full');
      },
    });
    const result = await inProcessProvider({ name: 'x', tools: [flaky] }).invoke('flaky', {}, ctx);
    expect(result).toEqual({
      content: 'flaky failed: the disk is full',
      isError: true,
      data: { code: 'tool_failed' },
    });
  });

  it('lets a handler that throws after its call was stopped reach the runtime', async () => {
    const controller = new AbortController();
    const slow = defineTool({
      name: 'slow',
      description: 'Stops.',
      handler: () => {
        controller.abort();
        throw new Error('aborted');
      },
    });
    await expect(slow.run({}, makeToolContext({ signal: controller.signal }))).rejects.toThrow('aborted');
  });

  it('passes a whole result from a handler through', async () => {
    const rich = defineTool({
      name: 'rich',
      description: 'Returns data.',
      fields: { n: field.integer() },
      handler: (args) => ({ content: `n is ${args.n}`, isError: false, data: { n: args.n } }),
    });
    expect(await rich.run({ n: '4' }, ctx)).toEqual({ content: 'n is 4', isError: false, data: { n: 4 } });
  });

  it('refuses two tools of one name', () => {
    expect(() => inProcessProvider({ name: 'x', tools: [notify, notify] })).toThrow(ToolDefinitionError);
  });
});
