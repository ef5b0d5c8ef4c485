import { describe, expect, it } from 'vitest';
import type { WireTool } from '../../../src/core/model.js';
import { requestChars } from '../../../src/runtime/context/token-estimate.js';

const tool = (name: string): WireTool => ({
  name,
  description: `Does ${name}.`,
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
});

describe('requestChars', () => {
  it('counts each tool’s name, description and schema, and a list that grew after it was counted again', () => {
    const tools = [tool('alpha')];
    const one = 'alpha'.length + 'Does alpha.'.length + JSON.stringify(tools[0]?.parameters).length;
    const request = { system: 'Be brief.', messages: [], tools };
    expect(requestChars(request)).toBe('Be brief.'.length + one);
    // Counted again: the same answer.
    expect(requestChars(request)).toBe('Be brief.'.length + one);
    tools.push(tool('beta'));
    const two = 'beta'.length + 'Does beta.'.length + JSON.stringify(tools[1]?.parameters).length;
    expect(requestChars(request)).toBe('Be brief.'.length + one + two);
  });
});
