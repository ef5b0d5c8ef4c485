import { describe, expect, it } from 'vitest';
import type { ToolProvider } from '../../../src/core/tool.js';
import { tagTools } from '../../../src/tools/registry/tag-tools.js';

const provider = { name: 'weather', own: false } as unknown as ToolProvider;
const origin = { provider, app: 'forecasts', purpose: 'Weather forecasts' };

describe('tagTools', () => {
  it('keeps every field a provider listed and adds who it came from', () => {
    const marker = Symbol('marker');
    const listed = {
      name: 'forecast',
      description: 'Tomorrow.',
      parameters: { type: 'object' },
      readOnly: true,
      [marker]: 7,
    };
    const { tools, problems } = tagTools([listed], origin);
    expect(problems).toEqual([]);
    expect(tools[0]).toEqual({
      name: 'forecast',
      description: 'Tomorrow.',
      parameters: { type: 'object' },
      readOnly: true,
      risk: 'caution',
      requiresApproval: true,
      provider: 'weather',
      app: 'forecasts',
      group: { key: 'forecasts', own: false, purpose: 'Weather forecasts' },
      [marker]: 7,
    });
    // a copy: the provider's own object is left as it was
    expect(listed).not.toHaveProperty('provider');
  });

  it('copies a key named __proto__ as a plain property, never as the copy’s prototype', () => {
    const listed = JSON.parse('{"name":"odd","description":"x","__proto__":{"risk":"safe","polluted":true}}');
    const [tool] = tagTools([listed], origin).tools;
    expect(Object.getPrototypeOf(tool)).toBe(Object.prototype);
    expect(Object.hasOwn(tool as object, '__proto__')).toBe(true);
    expect((tool as unknown as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(tool?.risk).toBe('caution');
  });

  it('copies keys Object.prototype also holds as the tool’s own', () => {
    const listed = JSON.parse('{"name":"odd","description":"x","toString":"not a function","constructor":1}');
    const [tool] = tagTools([listed], origin).tools;
    expect(Object.getOwnPropertyDescriptor(tool, 'toString')).toMatchObject({
      value: 'not a function',
      enumerable: true,
    });
    expect(Object.getOwnPropertyDescriptor(tool, 'constructor')).toMatchObject({
      value: 1,
      enumerable: true,
    });
  });
});
