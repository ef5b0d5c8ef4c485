import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { WireTool } from '../../core/model.js';

/** One tool in Chat Completions form. */
export function toOpenAITool(tool: WireTool): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}
