import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { isPlainObject } from '../../core/json.js';
import { nestsTooDeep } from '../../core/json-depth.js';
import { jsonTextOf } from '../../core/json-text-of.js';

/** The tool inputs of a Converse answer body, as the objects that hold them. */
function toolUses(body: unknown): Record<string, unknown>[] {
  if (!isPlainObject(body) || !isPlainObject(body.output) || !isPlainObject(body.output.message)) return [];
  const content = body.output.message.content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((block) =>
    isPlainObject(block) && isPlainObject(block.toolUse) ? [block.toolUse] : [],
  );
}

/**
 * A whole (not streamed) Converse answer whose tool input nests too deep for the AWS SDK, which copies
 * every document recursively and would fail the whole answer with a RangeError: such an input reaches
 * the adapter as its JSON text instead (a string document), and the runtime answers the call as one
 * whose arguments nest too deep.
 */
export function keepDeepToolInputs(client: BedrockRuntimeClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const response = result.response as { statusCode?: unknown; body?: unknown };
      if (context.commandName !== 'ConverseCommand' || response.statusCode !== 200) return result;
      const body = response.body;
      if (body === null || typeof body !== 'object' || !(Symbol.asyncIterator in body)) return result;
      const chunks: Buffer[] = [];
      for await (const chunk of body as AsyncIterable<Uint8Array | string>) chunks.push(Buffer.from(chunk));
      const bytes = Buffer.concat(chunks);
      response.body = new Uint8Array(bytes);
      let parsed: unknown;
      try {
        parsed = JSON.parse(bytes.toString('utf8'));
      } catch {
        return result; // the SDK says what is wrong with it
      }
      const deep = toolUses(parsed).filter((use) => nestsTooDeep(use.input));
      if (deep.length === 0) return result;
      for (const use of deep) use.input = jsonTextOf(use.input);
      response.body = new Uint8Array(Buffer.from(JSON.stringify(parsed), 'utf8'));
      return result;
    },
    { step: 'deserialize', priority: 'low', name: 'toolseamDeepToolInputs' },
  );
}
