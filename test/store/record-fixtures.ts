import { createHash } from 'node:crypto';
import type { GrantScope } from '../../src/core/grant-scope.js';
import type { JsonObject } from '../../src/core/json.js';
import type { NewToolCall, SessionStore } from '../../src/core/session-store.js';

/** A stand-in for the runtime's digest: any stable function of tool + arguments will do here. */
export function digestOf(tool: string, args: JsonObject): string {
  return createHash('sha256')
    .update(`${tool}\n${JSON.stringify(args)}`)
    .digest('hex');
}

/** A readable call as the runtime would record it. */
export function newCall(
  id: string,
  tool: string,
  args: JsonObject,
  extra: Partial<NewToolCall> = {},
): NewToolCall {
  return {
    id,
    tool,
    wireName: tool.replaceAll('/', '__'),
    rawArguments: JSON.stringify(args),
    arguments: args,
    digest: digestOf(tool, args),
    ...extra,
  };
}

/** A session with one running turn whose model reply asked for `calls`. */
export async function turnWithCalls(
  store: SessionStore,
  calls: readonly NewToolCall[],
  userText = 'Tidy my notes',
) {
  const session = await store.createSession({ provider: 'openai', model: 'gpt-test' });
  const turn = await store.startTurn({ sessionId: session.id, userText });
  const reply = await store.recordModelReply(turn.id, { content: 'On it.', calls });
  return { session, turn, reply };
}

/** A command scope as the runtime offers one: `words` and any further arguments. */
export function commandScopeOf(...words: string[]): GrantScope {
  return { kind: 'command', words, summary: `run \`${words.join(' ')} …\` (any further arguments)` };
}

/** A folder scope as the runtime offers one. */
export function folderScopeOf(folder: string): GrantScope {
  return { kind: 'folder', folder, summary: `run write_file on files directly in \`${folder}\`` };
}
