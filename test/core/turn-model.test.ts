import { describe, expect, it } from 'vitest';
import { baseURLKey, modelDifference } from '../../src/core/turn-model.js';

describe('modelDifference on base URLs', () => {
  it('takes two spellings of one endpoint as the same', () => {
    const at = (baseURL: string) => ({ provider: 'openai-compatible', model: 'demo', baseURL });
    expect(modelDifference(at('http://127.0.0.1:8787/v1'), at('http://127.0.0.1:8787/v1/'))).toBeUndefined();
    expect(modelDifference(at('HTTP://LocalHost:80/v1'), at('http://localhost/v1'))).toBeUndefined();
    expect(modelDifference(at('https://api.example.com'), at('https://api.example.com/'))).toBeUndefined();
  });

  it('keeps another path, a doubled slash, a query, another port or scheme apart', () => {
    const key = 'http://h:8787/v1';
    for (const other of [
      'http://h:8787/v2',
      'http://h:8787/V1',
      'http://h:8787/v1//',
      'http://h:8787/v1?x=1',
      'http://h:8788/v1',
      'https://h:8787/v1',
      'http://h:8787',
    ]) {
      expect(baseURLKey(other)).not.toBe(baseURLKey(key));
    }
    expect(baseURLKey('not a url/')).toBe('not a url');
  });
});
