import { ToolseamError } from '../core/errors.js';
import type { ModelAdapter } from '../core/model.js';

/**
 * The model of an `mcp-serve` runtime: none. The client's own model decides the calls; sessions and
 * turns record this one, so `toolseam sessions` shows where their calls came from.
 */
export const servingModel: ModelAdapter = {
  provider: 'mcp-client',
  model: 'mcp-serve',
  // biome-ignore lint/correctness/useYield: it never streams
  async *stream() {
    throw new ToolseamError('no_model', 'toolseam mcp-serve runs no model: its calls come from MCP clients.');
  },
  toolsNamedInRejection: () => [],
};
