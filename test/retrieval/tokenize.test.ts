import { describe, expect, it } from 'vitest';
import { words } from '../../src/retrieval/tokenize.js';
import { ToolRetriever } from '../../src/retrieval/tool-retriever.js';
import { names, numbered, server, tool } from './fixtures.js';

describe('words of scripts written without spaces', () => {
  it('are the overlapping pairs of Chinese and Japanese characters', () => {
    expect(words('北京天气')).toEqual(['北京', '京天', '天气']);
    expect(words('天気を')).toEqual(['天気', '気を']);
    expect(words('メール')).toEqual(['メー', 'ール']);
    // A lone character stays one word; a character outside the BMP is never split.
    expect(words('雨')).toEqual(['雨']);
    expect(words('𠮷野家')).toEqual(['𠮷野', '野家']);
  });

  it('leave the Latin letters and digits beside them as words of their own', () => {
    expect(words('GitHub仓库')).toEqual(['git', 'hub', '仓库']);
    expect(words('iPhone15の設定')).toEqual(['i', 'phone', '15', 'の設', '設定']);
    expect(words('café déjà vu')).toEqual(['café', 'déjà', 'vu']);
    expect(words('서울 날씨')).toEqual(['서울', '날씨']);
  });
});

describe('requests in Chinese and Japanese', () => {
  const retriever = new ToolRetriever([
    ...numbered(60),
    tool('weather_cn', '查询城市的天气预报', server('mcp/cn')),
    tool('train_cn', '查询火车票和列车时刻', server('mcp/cn')),
    tool('weather_jp', '都市の天気予報を取得します', server('mcp/jp')),
    tool('mail_jp', 'メールを送信します', server('mcp/jp')),
  ]);

  it.each([
    ['帮我查一下北京的天气', 'weather_cn'],
    ['明天去上海的火车票', 'train_cn'],
    ['東京の天気を教えて', 'weather_jp'],
    ['田中さんにメールを送って', 'mail_jp'],
  ])('"%s" finds %s, in tool_search and in the turn’s selection', (request, expected) => {
    // Each request was one word that no tool held: nothing matched, and the tool was not offered.
    expect(retriever.search(request, { limit: 1 })[0]?.name).toBe(expected);
    expect(names(retriever.select(request))).toContain(expected);
  });
});

describe('words of scripts that write vowels as combining marks', () => {
  it('keep their marks, so a word is not cut into single letters at every vowel', () => {
    expect(words('வானிலை அறிக்கை')).toEqual(['வானிலை', 'அறிக்கை']);
    expect(words('ईमेल भेजें')).toEqual(['ईमेल', 'भेजें']);
    // Thai is written without spaces: pairs of characters, as Chinese is.
    expect(words('อากาศ')).toEqual(['อา', 'าก', 'กา', 'าศ']);
    // An accent written as a mark reads as the accented letter.
    expect(words('cafe\u0301 déjà')).toEqual(['café', 'déjà']);
  });

  const retriever = new ToolRetriever([
    ...numbered(60),
    tool('weather_ta', 'நகரத்தின் வானிலை அறிக்கையைப் பெறுங்கள்', server('mcp/ta')),
    tool('message_hi', 'किसी व्यक्ति को संदेश भेजें', server('mcp/hi')),
    tool('weather_th', 'ดูพยากรณ์อากาศของเมือง', server('mcp/th')),
  ]);

  it.each([
    ['சென்னை வானிலை', 'weather_ta'],
    ['माँ को संदेश भेजें', 'message_hi'],
    ['อากาศที่กรุงเทพวันนี้', 'weather_th'],
  ])('"%s" finds %s', (request, expected) => {
    // Each request's words fell apart into single letters, which rank nothing.
    expect(retriever.search(request, { limit: 1 })[0]?.name).toBe(expected);
    expect(names(retriever.select(request))).toContain(expected);
  });
});
