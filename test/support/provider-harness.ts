import type { ModelAdapter, ModelEvent, ModelRequest, StopReason, WireTool } from '../../src/core/model.js';
import { createModelAdapter, type ProviderConfig } from '../../src/providers/index.js';
import { type StandIn, type StandInFamily, startStandIn } from '../../src/testing/index.js';

/** One adapter under the contract: which stand-in it talks to and what its wire calls a stop. */
export interface AdapterHarness {
  readonly label: string;
  readonly family: StandInFamily;
  readonly mode?: 'gemini';
  readonly model: string;
  /** Corpus providers whose bodies this adapter must read (empty: another harness covers them). */
  readonly corpusProviders: readonly string[];
  /** The family's raw stop values and what each must mean, written out by hand. */
  readonly stopTable: Readonly<Record<string, StopReason>>;
}

/** Starts the harness's stand-in. */
export function standInFor(harness: AdapterHarness): Promise<StandIn> {
  return startStandIn({ family: harness.family, ...(harness.mode ? { mode: harness.mode } : {}) });
}

/** The real adapter pointed at `standIn`, with fast retries unless overridden. */
export function adapterFor(
  harness: AdapterHarness,
  standIn: StandIn,
  overrides: Partial<ProviderConfig> = {},
): ModelAdapter {
  return createModelAdapter({
    ...standIn.modelConfig(harness.model),
    retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 20 },
    env: {},
    ...overrides,
  } as ProviderConfig);
}

/** Every event of one call. */
export async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The error one call throws (fails the test when it does not throw). */
export async function failure(stream: AsyncIterable<ModelEvent>): Promise<unknown> {
  try {
    await collect(stream);
  } catch (error) {
    return error;
  }
  throw new Error('the call was expected to fail but it succeeded');
}

/** The text a call passed on before it failed, and what it failed with (undefined when it did not). */
export async function textBeforeFailure(
  stream: AsyncIterable<ModelEvent>,
): Promise<{ text: string; error: unknown }> {
  const seen: string[] = [];
  try {
    for await (const event of stream) if (event.type === 'text-delta') seen.push(event.text);
  } catch (error) {
    return { text: seen.join(''), error };
  }
  return { text: seen.join(''), error: undefined };
}

/** A weather tool with one required string property. */
export const WEATHER: WireTool = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'City name' } },
    required: ['city'],
  },
};

/** A clock tool without arguments (the empty object schema). */
export const CLOCK: WireTool = {
  name: 'get_time',
  description: 'The current time.',
  parameters: { type: 'object', properties: {} },
};

/** A one-message request offering `tools`. */
export function ask(text: string, tools: readonly WireTool[] = [WEATHER, CLOCK]): ModelRequest {
  return { system: 'You are a test assistant.', messages: [{ role: 'user', content: text }], tools };
}

/** The text of every text delta. */
export function textOf(events: readonly ModelEvent[]): string {
  return events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
}

/** The finish event (fails when there is none or it is not last). */
export function finishOf(events: readonly ModelEvent[]): Extract<ModelEvent, { type: 'finish' }> {
  const last = events[events.length - 1];
  if (last?.type !== 'finish') throw new Error(`the last event is ${last?.type ?? 'missing'}, not finish`);
  return last;
}

/** The tool-call events. */
export function callsOf(events: readonly ModelEvent[]): Extract<ModelEvent, { type: 'tool-call' }>[] {
  return events.flatMap((e) => (e.type === 'tool-call' ? [e] : []));
}
