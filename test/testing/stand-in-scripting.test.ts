import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDevProvider } from '../../src/cli/dev-provider-command.js';
import { InputError, type ProviderError } from '../../src/core/errors.js';
import type { WireTool } from '../../src/core/model.js';
import { loadScript, type StandIn, startStandIn } from '../../src/testing/index.js';
import { adapterFor, ask, collect, failure, textOf, WEATHER } from '../support/provider-harness.js';
import { closeStandIns, standIn } from './stand-in-fixtures.js';

afterEach(closeStandIns);

describe('scripting', () => {
  it('answers concurrent requests by their matching turns, whatever the order they were queued', async () => {
    const s = await standIn({
      family: 'openai',
      script: [
        { text: 'about apples', match: { lastUserIncludes: 'apple' } },
        { text: 'about pears', match: { lastUserIncludes: 'pear' }, delayMs: 30 },
        {
          when: (r) => r.tools.some((t) => t.name === 'get_weather'),
          respond: (r) => ({ text: `${r.tools.length} tools offered` }),
        },
      ],
    });
    const adapter = adapterFor(
      { label: 'o', family: 'openai', model: 'm', corpusProviders: [], stopTable: {} },
      s,
    );
    const [pear, apple] = await Promise.all([
      collect(adapter.stream(ask('a pear?', []))),
      collect(adapter.stream(ask('an apple?', []))),
    ]);
    expect(textOf(pear)).toBe('about pears');
    expect(textOf(apple)).toBe('about apples');
    expect(textOf(await collect(adapter.stream(ask('weather', [WEATHER]))))).toBe('1 tools offered');
    expect(s.pending).toBe(0);
  });

  it('says so when the script has no turn left, and can echo instead', async () => {
    const s = await standIn({ family: 'anthropic' });
    const harness = {
      label: 'a',
      family: 'anthropic' as const,
      model: 'c',
      corpusProviders: [],
      stopTable: {},
    };
    const error = (await failure(adapterFor(harness, s).stream(ask('anyone?')))) as ProviderError;
    expect(error.status).toBe(400);
    expect(error.message).toContain('no turn left');
    expect(s.requests[0]?.outcome.kind).toBe('no-turn');
    const echo = await standIn({ family: 'anthropic', whenScriptEmpty: 'echo' });
    expect(textOf(await collect(adapterFor(harness, echo).stream(ask('say this back'))))).toBe(
      'say this back',
    );
  });

  it('rejects a tool it is told to reject, in each family’s words, mapped back to that tool', async () => {
    const tools: WireTool[] = [WEATHER, { ...WEATHER, name: 'bad_tool' }];
    for (const family of ['openai', 'anthropic', 'bedrock'] as const) {
      const s = await standIn({ family, rejectTools: ['bad_tool'] });
      const adapter = adapterFor(
        { label: family, family, model: 'm', corpusProviders: [], stopTable: {} },
        s,
      );
      const error = await failure(adapter.stream(ask('go', tools)));
      expect(adapter.toolsNamedInRejection(error, tools)).toEqual(['bad_tool']);
      expect(s.requests).toHaveLength(1);
    }
  });

  it('loads a JSON script and names what is wrong in a bad one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-script-'));
    const good = join(dir, 'good.json');
    writeFileSync(
      good,
      JSON.stringify({ turns: [{ text: 'hi' }, { toolCalls: [{ name: 'x', arguments: { a: 1 } }] }] }),
    );
    expect(await loadScript(good)).toHaveLength(2);
    const cases: [string, string, RegExp][] = [
      ['notjson.json', '{nope', /not valid JSON/],
      ['shape.json', '{"steps": []}', /list of turns/],
      [
        'two.json',
        '[{"text": "a"}, {"text": "b", "error": {"status": 500}}]',
        /turn 2: give one kind of answer/,
      ],
      [
        'noname.json',
        '[{"toolCalls": [{"arguments": {}}]}]',
        /turn 1 toolCalls\[0\]: each tool call needs a "name"/,
      ],
      ['empty.json', '[{}]', /say what the model answers/],
    ];
    for (const [name, text, pattern] of cases) {
      writeFileSync(join(dir, name), text);
      await expect(loadScript(join(dir, name))).rejects.toThrow(pattern);
      await expect(loadScript(join(dir, name))).rejects.toBeInstanceOf(InputError);
    }
    await expect(loadScript(join(dir, 'missing.json'))).rejects.toThrow(/Cannot read the script/);
  });

  it('refuses a script given in code that is not a list of turns, saying what it takes', async () => {
    // A script file's {"turns": [...]} passed as it is: TypeScript catches it, JavaScript does not.
    const wrapped = { turns: [{ text: 'hi' }] } as unknown as [];
    await expect(startStandIn({ family: 'openai', script: wrapped })).rejects.toThrow(
      /script must be a list of turns/,
    );
    await expect(startStandIn({ family: 'openai', script: wrapped })).rejects.toBeInstanceOf(InputError);
  });
});

describe('toolseam dev-provider', () => {
  it('serves a script to a real client until stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-dev-'));
    const script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify([{ text: 'scripted hello' }]));
    const lines: string[] = [];
    const controller = new AbortController();
    let served: StandIn | undefined;
    const done = runDevProvider(
      ['--family', 'openai', '--mode', 'gemini', '--port', '0', '--script', script],
      {
        out: (line) => lines.push(line),
        signal: controller.signal,
        onListening: (s) => {
          served = s;
        },
      },
    );
    await expect.poll(() => served).toBeDefined();
    const s = served as StandIn;
    const adapter = adapterFor(
      { label: 'g', family: 'openai', mode: 'gemini', model: 'g', corpusProviders: [], stopTable: {} },
      s,
    );
    expect(textOf(await collect(adapter.stream(ask('hello'))))).toBe('scripted hello');
    controller.abort();
    expect(await done).toBe(0);
    expect(lines[0]).toContain('(gemini mode) listening on http://127.0.0.1:');
    expect(lines.join('\n')).toContain('/v1beta/openai');
    expect(lines.at(-1)).toBe('stopped after 1 request(s)');
  });

  it('refuses bad options with the usage', async () => {
    const io = { out: () => {}, signal: AbortSignal.abort() };
    await expect(runDevProvider(['--family', 'cohere'], io)).rejects.toThrow(
      /--family must be openai, anthropic or bedrock/,
    );
    await expect(runDevProvider(['--family', 'anthropic', '--mode', 'gemini'], io)).rejects.toThrow(
      /mode of the openai family/,
    );
    await expect(runDevProvider(['--family', 'openai', '--port', '70000'], io)).rejects.toThrow(/--port/);
    await expect(runDevProvider(['--nope'], io)).rejects.toBeInstanceOf(InputError);
  });
});
