import { randomUUID } from 'node:crypto';
import { nestsTooDeep } from '../../core/json-depth.js';
import type { ModelEvent } from '../../core/model.js';

interface Slot {
  id: string;
  name: string;
  fragments: string[];
  /** Arguments given whole at the start (a non-streamed input object), used when no fragment came. */
  initial: string;
  signature: string | undefined;
}

type ToolCallEvent = Extract<ModelEvent, { type: 'tool-call' }>;

/**
 * Assembles tool calls from streamed pieces. Each call lives in a slot keyed by whatever the wire uses
 * (an index, a content-block index, or the call id when a provider leaves the index out), so calls
 * that interleave or arrive whole are all kept, in the order they started.
 */
export class ToolCallAssembler {
  private readonly slots = new Map<string, Slot>();
  private lastKey: string | undefined;

  /** Opens (or updates) the call in `key`; a missing id is generated. */
  start(key: string, id: string | undefined, name: string | undefined, initial = ''): void {
    const existing = this.slots.get(key);
    if (existing) {
      if (id) existing.id = id;
      if (name && !existing.name) existing.name = name;
    } else {
      this.slots.set(key, {
        // Unique across replies: the ids of one turn's calls must never repeat.
        id: id || `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
        name: name ?? '',
        fragments: [],
        initial,
        signature: undefined,
      });
    }
    this.lastKey = key;
  }

  /** Adds an argument fragment to `key` (or to the latest call when the wire gives no key). */
  append(key: string | undefined, fragment: string): void {
    const slot = this.slots.get(key ?? this.lastKey ?? '');
    if (slot) slot.fragments.push(fragment);
  }

  /** Keeps the token the provider wants echoed back with the call in `key` (see `AssistantToolCall.signature`). */
  sign(key: string | undefined, signature: string): void {
    const slot = this.slots.get(key ?? this.lastKey ?? '');
    if (slot) slot.signature = signature;
  }

  /** True when the slot exists. */
  has(key: string): boolean {
    return this.slots.has(key);
  }

  /** How many calls have started. */
  get size(): number {
    return this.slots.size;
  }

  /** The assembled calls in start order; empty arguments become `{}`. */
  finish(): ToolCallEvent[] {
    const calls: ToolCallEvent[] = [];
    for (const slot of this.slots.values()) {
      const joined = slot.fragments.length > 0 ? slot.fragments.join('') : slot.initial;
      const call: ToolCallEvent = {
        type: 'tool-call',
        id: slot.id,
        name: slot.name,
        arguments: joined.trim() === '' ? '{}' : joined,
      };
      calls.push(slot.signature === undefined ? call : { ...call, signature: slot.signature });
    }
    this.slots.clear();
    return calls;
  }
}

/**
 * Reads a call's JSON arguments as an object for wires that carry objects: `{}` when unreadable, or when
 * they nest too deep for the SDK to write them back (the runtime refused such a call, and its result says so).
 */
export function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && !nestsTooDeep(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // the model's arguments were not JSON; the runtime already answered that call with an error
  }
  return {};
}
