/** One wire turn: a role and its content blocks. */
export interface WireTurn<Block> {
  readonly role: 'user' | 'assistant';
  readonly blocks: Block[];
}

/**
 * Messages as block-based turns (Anthropic, Bedrock): each message becomes blocks, empty ones are
 * dropped, and consecutive messages of one role share a turn, so tool results and the user's next text
 * travel together as those APIs require.
 */
export function groupTurns<Message, Block>(
  messages: readonly Message[],
  blocksOf: (message: Message) => WireTurn<Block>,
): WireTurn<Block>[] {
  const turns: { role: 'user' | 'assistant'; blocks: Block[] }[] = [];
  for (const message of messages) {
    const { role, blocks } = blocksOf(message);
    if (blocks.length === 0) continue;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks: [...blocks] });
  }
  return turns;
}
