import { describe, expect, it } from 'vitest';
import type { WireTool } from '../../../src/core/model.js';
import { requestChars } from '../../../src/runtime/context/token-estimate.js';

const tool = (name: string): WireTool => ({
  name,
  description: `Does ${name}.`,
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
});

describe('requestChars', () => {
  const charsOf = (t: WireTool): number =>
    t.name.length + t.description.length + JSON.stringify(t.parameters).length;

  it('counts each tool’s name, description and schema, a frozen list once', () => {
    const tools = Object.freeze([tool('alpha'), tool('beta')]);
    const request = { system: 'Be brief.', messages: [], tools };
    const want = 'Be brief.'.length + tools.reduce((n, t) => n + charsOf(t), 0);
    expect(requestChars(request)).toBe(want);
    expect(requestChars(request)).toBe(want);
  });

  it('counts a list that is not frozen again each time, as it is now', () => {
    const tools = [tool('alpha')];
    const request = { system: '', messages: [], tools };
    expect(requestChars(request)).toBe(charsOf(tools[0] as WireTool));
    tools[0] = tool('a_much_longer_name');
    expect(requestChars(request)).toBe(charsOf(tools[0]));
    tools.push(tool('beta'));
    expect(requestChars(request)).toBe(charsOf(tools[0]) + charsOf(tools[1] as WireTool));
  });
});
