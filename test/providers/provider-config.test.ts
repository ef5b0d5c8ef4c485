import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import type { ModelAdapter } from '../../src/core/model.js';
import { LOCAL_AWS_CREDENTIALS } from '../../src/providers/bedrock/bedrock-endpoint.js';
import { createModelAdapter, resolveProviderConfig } from '../../src/providers/index.js';
import { startStandIn } from '../../src/testing/index.js';

/** The text a model adapter answers one user message with. */
async function answerTo(adapter: ModelAdapter, message: string): Promise<string> {
  let text = '';
  const request = { system: '', messages: [{ role: 'user' as const, content: message }], tools: [] };
  for await (const event of adapter.stream(request)) if (event.type === 'text-delta') text += event.text;
  return text;
}

describe('resolveProviderConfig', () => {
  it('reads each provider’s usual key variable and public endpoint', () => {
    const env = {
      OPENAI_API_KEY: 'sk-o',
      OPENROUTER_API_KEY: 'sk-r',
      GOOGLE_API_KEY: 'g',
      MISTRAL_API_KEY: 'm',
      ANTHROPIC_API_KEY: 'a',
    };
    expect(resolveProviderConfig({ provider: 'openai', model: 'gpt', env })).toMatchObject({
      family: 'openai',
      apiKey: 'sk-o',
      baseURL: 'https://api.openai.com/v1',
    });
    expect(resolveProviderConfig({ provider: 'openrouter', model: 'x', env })).toMatchObject({
      apiKey: 'sk-r',
      baseURL: 'https://openrouter.ai/api/v1',
    });
    expect(resolveProviderConfig({ provider: 'gemini', model: 'x', env })).toMatchObject({
      apiKey: 'g',
      baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    });
    expect(resolveProviderConfig({ provider: 'mistral', model: 'x', env })).toMatchObject({
      apiKey: 'm',
      streamUsage: false,
    });
    expect(resolveProviderConfig({ provider: 'anthropic', model: 'x', env })).toMatchObject({
      family: 'anthropic',
      apiKey: 'a',
    });
  });

  it('an empty apiKey counts as none given: the environment’s key, or none for a local server', () => {
    const env = { OPENAI_API_KEY: 'sk-env' };
    expect(resolveProviderConfig({ provider: 'openai', model: 'm', apiKey: '', env }).apiKey).toBe('sk-env');
    const local = {
      provider: 'openai-compatible',
      model: 'm',
      baseURL: 'http://127.0.0.1:9/v1',
      env: {},
    } as const;
    expect(() => createModelAdapter({ ...local, apiKey: ' ' })).not.toThrow();
    expect(() => resolveProviderConfig({ provider: 'anthropic', model: 'm', apiKey: '  ', env: {} })).toThrow(
      /No API key for anthropic: set ANTHROPIC_API_KEY/,
    );
  });

  it('lets a server on this machine go without a key for any provider, and keeps asking for one elsewhere', async () => {
    const env = {};
    for (const provider of ['anthropic', 'openai', 'openrouter', 'gemini', 'mistral'] as const) {
      const local = { provider, model: 'm', baseURL: 'http://127.0.0.1:8787/v1', env };
      expect(() => resolveProviderConfig(local)).not.toThrow();
      expect(resolveProviderConfig({ ...local, baseURL: 'http://localhost:4000' }).apiKey).toBeUndefined();
    }
    expect(() =>
      resolveProviderConfig({ provider: 'anthropic', model: 'm', baseURL: 'https://proxy.example.com', env }),
    ).toThrow(/No API key for anthropic: set ANTHROPIC_API_KEY/);
    // the real SDK, with no key, against the Anthropic stand-in on loopback
    const standIn = await startStandIn({ family: 'anthropic', script: [{ text: 'Hi there.' }] });
    try {
      const { apiKey: _key, ...config } = standIn.modelConfig('m') as { apiKey?: string };
      const adapter = createModelAdapter({ ...config, env } as never);
      const text = await answerTo(adapter, 'hi');
      expect(text).toBe('Hi there.');
    } finally {
      await standIn.close();
    }
  });

  it('prefers what the config says over the environment, and fills in retry and timeout defaults', () => {
    const resolved = resolveProviderConfig({
      provider: 'anthropic',
      model: ' claude ',
      apiKey: 'given',
      baseURL: 'http://127.0.0.1:9/',
      env: { ANTHROPIC_API_KEY: 'env', ANTHROPIC_BASE_URL: 'http://elsewhere' },
    });
    expect(resolved).toMatchObject({
      apiKey: 'given',
      baseURL: 'http://127.0.0.1:9/',
      model: 'claude',
      timeoutMs: 600_000,
    });
    expect(resolved.retry).toEqual({ maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000 });
    expect(
      resolveProviderConfig({
        provider: 'anthropic',
        model: 'c',
        env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://proxy:1' },
      }).baseURL,
    ).toBe('http://proxy:1');
  });

  it('lets a local OpenAI-compatible server go without a key but not without a URL', () => {
    expect(
      resolveProviderConfig({
        provider: 'openai-compatible',
        model: 'llama',
        baseURL: 'http://localhost:8080/v1',
        env: {},
      }).apiKey,
    ).toBeUndefined();
    expect(() => resolveProviderConfig({ provider: 'openai-compatible', model: 'llama', env: {} })).toThrow(
      /base URL/,
    );
  });

  it('names the variable a base URL without a scheme came from, and the URL to write instead', () => {
    const fromEnv = () =>
      resolveProviderConfig({
        provider: 'openai',
        model: 'gpt',
        env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'localhost:11434/v1' },
      });
    expect(fromEnv).toThrow(InputError);
    expect(fromEnv).toThrow(
      'The openai base URL "localhost:11434/v1" (from the environment variable OPENAI_BASE_URL) does not start with http:// or https://; set it to one such as "http://localhost:11434/v1", or unset OPENAI_BASE_URL to use the provider\'s own.',
    );
    const given = () =>
      resolveProviderConfig({
        provider: 'openai',
        model: 'gpt',
        apiKey: 'k',
        baseURL: 'api.example.com/v1',
        env: {},
      });
    expect(given).toThrow(
      'The openai base URL "api.example.com/v1" (baseURL) does not start with http:// or https://; set it to one such as "https://api.example.com/v1".',
    );
  });

  it('takes Bedrock’s region from the AWS variables and needs one', () => {
    expect(
      resolveProviderConfig({
        provider: 'bedrock',
        model: 'anthropic.claude',
        env: { AWS_DEFAULT_REGION: 'eu-west-1' },
      }).region,
    ).toBe('eu-west-1');
    expect(() => resolveProviderConfig({ provider: 'bedrock', model: 'm', env: {} })).toThrow(/AWS_REGION/);
  });

  it('gives Bedrock on this machine a placeholder region and credentials, never a real one the person did not set', () => {
    const here = { provider: 'bedrock', model: 'm', baseURL: 'http://127.0.0.1:8787' } as const;
    const bare = resolveProviderConfig({ ...here, env: {} });
    expect(bare.region).toBe('us-east-1');
    expect(bare.credentials).toEqual(LOCAL_AWS_CREDENTIALS);
    // what the person set wins: their region, their key pair or profile (the SDK's chain), the config's own
    const set = resolveProviderConfig({
      ...here,
      env: { AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKIA', AWS_SECRET_ACCESS_KEY: 's' },
    });
    expect(set.region).toBe('eu-west-1');
    expect(set.credentials).toBeUndefined();
    expect(resolveProviderConfig({ ...here, env: { AWS_PROFILE: 'work' } }).credentials).toBeUndefined();
    const own = { accessKeyId: 'mine', secretAccessKey: 'mine' };
    expect(resolveProviderConfig({ ...here, credentials: own, env: {} }).credentials).toBe(own);
    // elsewhere nothing is made up: the region must be given and the chain finds the credentials
    const remote = { ...here, baseURL: 'https://bedrock-runtime.eu-west-1.amazonaws.com', env: {} };
    expect(() => resolveProviderConfig(remote)).toThrow(/Bedrock needs an AWS region/);
    expect(resolveProviderConfig({ ...remote, region: 'eu-west-1' }).credentials).toBeUndefined();
  });

  it('the real Bedrock SDK signs a request to the stand-in with the placeholder access key', async () => {
    const standIn = await startStandIn({ family: 'bedrock', script: [{ text: 'Hi from Bedrock.' }] });
    try {
      const adapter = createModelAdapter({
        provider: 'bedrock',
        model: 'm',
        baseURL: standIn.baseURL,
        env: {},
      });
      const text = await answerTo(adapter, 'hi');
      expect(text).toBe('Hi from Bedrock.');
      const authorization = standIn.requests[0]?.headers['authorization'] ?? '';
      expect(authorization).toContain(`Credential=${LOCAL_AWS_CREDENTIALS.accessKeyId}/`);
      expect(authorization).toContain('/us-east-1/bedrock/');
    } finally {
      await standIn.close();
    }
  });

  it.each([
    [{ provider: 'openai', model: 'gpt', env: {} }, /OPENAI_API_KEY/],
    [{ provider: 'gemini', model: 'g', env: {} }, /GEMINI_API_KEY or GOOGLE_API_KEY/],
    [{ provider: 'openai', model: '', env: { OPENAI_API_KEY: 'k' } }, /model id/],
    [{ provider: 'cohere', model: 'c', env: {} }, /Unknown model provider "cohere"/],
    [{ provider: 'openai', model: 'g', apiKey: 'k', baseURL: 'ftp://x', env: {} }, /not an http\(s\) URL/],
    [{ provider: 'openai', model: 'g', apiKey: 'k', timeoutMs: -1, env: {} }, /timeoutMs/],
    [
      { provider: 'openai', model: 'g', apiKey: 'k', timeoutMs: 0, env: {} },
      /timeoutMs must be .* from 1 to/,
    ],
    [
      { provider: 'bedrock', model: 'm', region: 'r', timeoutMs: 2 ** 31, env: {} },
      /2147483647.*got 2147483648/,
    ],
    [{ provider: 'anthropic', model: 'c', apiKey: 'k', timeoutMs: 1.5, env: {} }, /whole number.*got 1\.5/],
  ])('refuses %j with a clear InputError', (config, pattern) => {
    expect(() => resolveProviderConfig(config as never)).toThrow(InputError);
    expect(() => resolveProviderConfig(config as never)).toThrow(pattern);
  });

  it('createModelAdapter picks the family and names the provider', () => {
    const env = { OPENROUTER_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', AWS_REGION: 'us-east-1' };
    expect(createModelAdapter({ provider: 'openrouter', model: 'x', env }).provider).toBe('openrouter');
    expect(createModelAdapter({ provider: 'anthropic', model: 'claude', env }).model).toBe('claude');
    expect(createModelAdapter({ provider: 'bedrock', model: 'amazon.nova', env }).provider).toBe('bedrock');
  });
});
