import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireTool } from '../../src/core/model.js';
import type { StandIn } from '../../src/testing/index.js';
import { type AdapterHarness, adapterFor, ask, failure, standInFor } from '../support/provider-harness.js';

const HARNESS: AdapterHarness = {
  label: 'Mistral',
  family: 'openai',
  model: 'mistral-test',
  corpusProviders: [],
  stopTable: {},
};

const UNIT = { type: 'string', enum: ['kg', 'lb'] };

/** A schema with a number Python prints in exponent form and a non-breaking space Python escapes. */
const WEIGH: WireTool = {
  name: 'convert_weight',
  description: 'Convert a weight.',
  parameters: {
    type: 'object',
    properties: {
      weight: { type: 'number', exclusiveMinimum: 0.00001, description: 'Weight in kg, 5\u00a0g steps' },
      unit: UNIT,
    },
    required: ['weight'],
  },
};

/** Another tool that shares only the `unit` property with it. */
const PRICE: WireTool = {
  name: 'price_parcel',
  description: 'Price a parcel.',
  parameters: { type: 'object', properties: { unit: UNIT, express: { type: 'boolean' } } },
};

/** What Mistral answers for WEIGH: its parameters as Python's `repr` prints them (made with Python 3). */
const BODY = JSON.stringify({
  object: 'error',
  message:
    "Invalid tool schema: {'type': 'object', 'properties': {'weight': {'type': 'number', 'exclusiveMinimum': 1e-05, 'description': 'Weight in kg, 5\\xa0g steps'}, 'unit': {'type': 'string', 'enum': ['kg', 'lb']}}, 'required': ['weight']} is not valid under any of the given schemas",
  type: 'invalid_request_error',
  param: null,
  code: null,
});

describe('a Mistral rejection quoting the parameters as Python prints them', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await standInFor(HARNESS);
  });
  afterAll(() => standIn.close());

  it('names the tool whose parameters hold small numbers and characters Python escapes, and no other', async () => {
    standIn.reset();
    standIn.push({ raw: { status: 400, headers: { 'content-type': 'application/json' }, body: BODY } });
    const adapter = adapterFor(HARNESS, standIn, { provider: 'mistral', retry: { maxRetries: 0 } });
    const tools = [PRICE, WEIGH];
    const error = await failure(adapter.stream(ask('weigh it', tools)));
    expect(adapter.toolsNamedInRejection(error, tools)).toEqual(['convert_weight']);
    expect(standIn.requests).toHaveLength(1);
  });
});
