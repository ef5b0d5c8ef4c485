import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { InputError } from '../src/core/errors.js';
import { globMatch } from '../src/runtime/glob-match.js';

const parse = (data: unknown) => parseConfig(data, { source: 'toolseam.json', baseDir: '/home/me', env: {} });

/** The message of the InputError `data` is refused with. */
function refusal(data: unknown): string {
  try {
    parse(data);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('the config was accepted');
}

describe('toolseam.json: limits', () => {
  it('takes the known limits as whole numbers above 0', () => {
    const limits = {
      maxModelCalls: 10,
      maxToolCalls: 20,
      repeatLimit: 3,
      resultChars: 5000,
      parallelCalls: 2,
    };
    expect(parse({ limits }).limits).toEqual(limits);
    expect(parse({}).limits).toEqual({});
  });

  it('refuses an unknown limit, naming it and the known ones', () => {
    expect(refusal({ limits: { maxTurns: 5 } })).toMatch(/"limits\.maxTurns".*maxModelCalls, maxToolCalls/);
  });

  it.each([['"10"'], ['-1'], ['0'], ['1.5']])('refuses %s as a limit, naming the key', (text) => {
    const message = refusal({ limits: { maxToolCalls: JSON.parse(text) } });
    expect(message).toMatch(/"limits\.maxToolCalls".*whole number above 0/);
  });

  it('refuses limits that are not an object', () => {
    expect(refusal({ limits: 5 })).toMatch(/"limits".*must be an object/);
  });
});

describe('toolseam.json: approvals.timeoutMs', () => {
  it('takes up to 2^31-1 ms, the longest a Node timer waits', () => {
    expect(parse({ approvals: { timeoutMs: 2 ** 31 - 1 } }).approvals.timeoutMs).toBe(2 ** 31 - 1);
  });

  it('refuses more, saying what the longest is', () => {
    expect(refusal({ approvals: { timeoutMs: 2 ** 31 } })).toMatch(/"approvals\.timeoutMs".*2147483647 ms/);
  });

  it.each([[0], [-5], ['300000']])('refuses %j', (timeoutMs) => {
    expect(refusal({ approvals: { timeoutMs } })).toMatch(/"approvals\.timeoutMs".*positive number/);
  });

  it('refuses a hook timeout past the same bound', () => {
    const hooks = { preToolUse: [{ command: './check.sh', timeoutMs: 2 ** 32 }] };
    expect(refusal({ hooks })).toMatch(/"hooks\.preToolUse\[0\]\.timeoutMs"/);
  });
});

describe('toolseam.json: tool name patterns are compiled when the config loads', () => {
  it('the runtime would throw on this pattern mid-turn', () => {
    expect(() => globMatch('shell.[z-a]', 'shell.x')).toThrow();
  });

  it('accepts patterns the runtime can read', () => {
    const config = parse({
      denyList: ['bash', { tool: 'mcp/*', reason: 'no' }],
      agents: { reader: { tools: ['read_?ile', '[!x]*', 'grep'] } },
      hooks: { preToolUse: [{ match: 'mcp/files/[a-m]*', command: './check.sh' }] },
    });
    expect(config.denyList).toHaveLength(2);
    expect(config.hooks[0]?.match).toBe('mcp/files/[a-m]*');
  });

  it.each([
    [{ denyList: ['shell.[z-a]'] }, 'denyList[0]'],
    [{ denyList: [{ tool: 'ok', reason: 'x' }, { tool: 'shell.[z-a]' }] }, 'denyList[1].tool'],
    [{ agents: { reader: { tools: ['grep', 'shell.[z-a]'] } } }, 'agents.reader.tools[1]'],
    [
      { hooks: { preToolUse: [{ match: 'shell.[z-a]', command: './check.sh' }] } },
      'hooks.preToolUse[0].match',
    ],
    [{ denyList: ['[b-a]x'] }, 'denyList[0]'],
  ])('refuses a pattern it cannot compile, naming the key (%j)', (data, key) => {
    const message = refusal(data);
    expect(message).toContain(`"${key}" in toolseam.json is not a tool name pattern`);
    expect(message).toMatch(/use \* for any characters/);
  });

  it('refuses a hook match that is not a string', () => {
    expect(refusal({ hooks: { preToolUse: [{ match: 5, command: './check.sh' }] } })).toMatch(
      /"hooks\.preToolUse\[0\]\.match" in toolseam\.json must be a tool name pattern/,
    );
  });
});

describe('toolseam.json: model', () => {
  it('takes the model settings a provider reads, with their types', () => {
    const model = {
      provider: 'openai-compatible',
      model: 'm',
      baseURL: 'http://127.0.0.1:8080/v1',
      contextWindow: 32000,
      retry: { maxRetries: 0 },
      headers: { 'X-Title': 'toolseam' },
      stream: false,
    };
    expect(parse({ model }).model).toEqual(model);
  });

  it('refuses a misspelt setting, naming the one it looks like', () => {
    const message = refusal({
      model: { provider: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:8080/v1' },
    });
    expect(message).toMatch(
      /"model\.baseUrl" in toolseam\.json is not a model setting; did you mean "baseURL"\?/,
    );
    expect(refusal({ model: { provider: 'openai', modle: 'm' } })).toMatch(/did you mean "model"\?/);
  });

  it.each([
    ['contextWindow', '"32000"', /"model\.contextWindow".*whole number of tokens/],
    ['provider', '"opnai"', /"model\.provider".*one of openai,/],
    ['maxTokens', '0', /"model\.maxTokens".*whole number above 0/],
    ['stream', '"no"', /"model\.stream".*true or false/],
    ['headers', '{"X": 1}', /"model\.headers".*string values/],
    ['timeoutMs', '0', /"model\.timeoutMs".*whole number of milliseconds from 1 to 2147483647/],
    ['timeoutMs', '1.5', /"model\.timeoutMs".*whole number of milliseconds/],
    ['baseURL', '"localhost:8080/v1"', /"model\.baseURL".*http\(s\) URL such as/],
    ['baseURL', '"ftp://host/v1"', /"model\.baseURL".*http\(s\) URL such as/],
  ])('refuses %s = %s, naming the key and what it takes', (key, text, pattern) => {
    expect(refusal({ model: { model: 'm', [key]: JSON.parse(text) } })).toMatch(pattern);
  });

  it('a misspelt top-level key is named with the key it looks like', () => {
    expect(refusal({ modle: {} })).toMatch(/unknown key "modle"; did you mean "model"\?/);
  });
});

describe('toolseam.json: keys inside a section are checked as the top level is', () => {
  it.each([
    [
      { hooks: { PreToolUse: [{ command: './check.sh' }] } },
      /"hooks\.PreToolUse".*did you mean "preToolUse"\?/,
    ],
    [
      { hooks: { preToolUse: [{ matcher: 'bash', command: './check.sh' }] } },
      /"hooks\.preToolUse\[0\]\.matcher".*did you mean "match"\?/,
    ],
    [{ agents: { reader: { tool: ['read_file'] } } }, /"agents\.reader\.tool".*did you mean "tools"\?/],
    [{ approvals: { policy: 'ask', timeout: 1000 } }, /"approvals\.timeout".*did you mean "timeoutMs"\?/],
    [{ denyList: [{ tool: 'bash', reson: 'no shell' }] }, /"denyList\[0\]\.reson".*did you mean "reason"\?/],
    [
      { secrets: { TOKEN: { env: 'TOKEN', value: 'x' } } },
      /"secrets\.TOKEN\.value".*the secret settings are env/,
    ],
  ])('refuses %j, naming the key it looks like', (data, pattern) => {
    expect(refusal(data)).toMatch(pattern);
  });

  it.each([
    [{ approvals: { pollMs: -5 } }, /"approvals\.pollMs".*positive number/],
    [{ approvals: { unattended: 'yes' } }, /"approvals\.unattended".*true or false/],
    [{ agents: { reader: { instructions: 5 } } }, /"agents\.reader\.instructions".*string/],
    [{ denyList: [{ tool: 'bash', reason: ['no'] }] }, /"denyList\[0\]\.reason".*string/],
  ])('refuses %j, naming the key and what it takes', (data, pattern) => {
    expect(refusal(data)).toMatch(pattern);
  });

  it('takes every key the sections define', () => {
    const config = parse({
      approvals: { policy: 'ask', timeoutMs: 1000, pollMs: 50, unattended: false },
      hooks: { preToolUse: [{ match: 'mcp/*', command: './check.sh', timeoutMs: 500 }] },
      agents: { reader: { tools: ['read_file'], mode: 'plan', instructions: 'Read.', description: 'reads' } },
      denyList: [{ tool: 'bash', reason: 'no shell' }],
      secrets: { TOKEN: { env: 'TOKEN' } },
    });
    expect(config.hooks).toEqual([
      { match: 'mcp/*', command: './check.sh', timeoutMs: 500, cwd: '/home/me' },
    ]);
    expect(config.agents.reader?.tools).toEqual(['read_file']);
  });
});

describe('toolseam.json: toolTimeouts', () => {
  it('takes tool name patterns with milliseconds, in the order written', () => {
    const toolTimeouts = { 'weather/*': 10_000, '*': 30_000 };
    expect(parse({ toolTimeouts }).toolTimeouts).toEqual([
      { tool: 'weather/*', ms: 10_000 },
      { tool: '*', ms: 30_000 },
    ]);
    expect(parse({}).toolTimeouts).toEqual([]);
  });

  it('refuses what is not a map of patterns to milliseconds, naming the entry', () => {
    expect(refusal({ toolTimeouts: [1000] })).toMatch(
      /"toolTimeouts".*map tool name patterns to milliseconds/,
    );
    expect(refusal({ toolTimeouts: { slow: 'a minute' } })).toMatch(/"toolTimeouts\.slow".*milliseconds/);
    expect(refusal({ toolTimeouts: { 'x[z-a]': 5 } })).toMatch(/"toolTimeouts\.x\[z-a\]".*pattern/);
  });
});

describe('toolseam.json: the first-byte deadline', () => {
  it('takes model.firstByteTimeoutMs as whole milliseconds, and refuses anything else naming the key', () => {
    expect(parse({ model: { firstByteTimeoutMs: 30_000 } }).model).toEqual({ firstByteTimeoutMs: 30_000 });
    expect(refusal({ model: { firstByteTimeoutMs: '30s' } })).toMatch(
      /"model\.firstByteTimeoutMs".*whole number of milliseconds/,
    );
  });
});

describe('toolseam.json: shell', () => {
  it('takes the sandbox switch, the network switch, variables to pass on and places to read', () => {
    const shell = {
      sandbox: 'off',
      network: true,
      env: ['NODE_ENV', 'CI'],
      read: ['/opt', 'tools', '~/.gitconfig'],
    };
    expect(parse({ shell }).shell).toEqual({
      sandbox: 'off',
      network: true,
      env: ['NODE_ENV', 'CI'],
      read: ['/opt', '/home/me/tools', `${homedir()}/.gitconfig`],
    });
    expect(parse({}).shell).toEqual({});
  });

  it('refuses a variable named like a credential, saying how a secret reaches a command', () => {
    expect(refusal({ shell: { env: ['PATH', 'GITHUB_TOKEN'] } })).toBe(
      '"shell.env[1]" in toolseam.json names GITHUB_TOKEN, which by its name holds a credential, and no command gets one: store it under "secrets" and write {{secret:NAME}} in the command.',
    );
    expect(refusal({ shell: { env: ['my var'] } })).toMatch(/"shell\.env\[0\]".*not a variable name/);
  });

  it('refuses a place to read where credentials are kept, a bad switch and an unknown setting', () => {
    expect(refusal({ shell: { read: ['~/.ssh'] } })).toMatch(/"shell\.read\[0\]" .* is SSH keys/);
    expect(refusal({ shell: { sandbox: false } })).toMatch(/"shell\.sandbox".*"on" \(the default\) or "off"/);
    expect(refusal({ shell: { network: 'yes' } })).toMatch(/"shell\.network".*true or false/);
    expect(refusal({ shell: { sandbx: 'off' } })).toMatch(/"shell\.sandbx".*did you mean "sandbox"/);
  });
});
