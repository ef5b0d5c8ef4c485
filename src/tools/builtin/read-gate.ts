import type { ToolContext } from '../../core/tool.js';

const KEY = 'builtin.files.read';

function readFiles(ctx: ToolContext): Map<string, number> {
  let files = ctx.turnState.get(KEY) as Map<string, number> | undefined;
  if (!(files instanceof Map)) {
    files = new Map();
    ctx.turnState.set(KEY, files);
  }
  return files;
}

/** Records that the model saw `real` as it is now (its modification time) in this turn. */
export function markRead(ctx: ToolContext, real: string, mtimeMs: number): void {
  readFiles(ctx).set(real, mtimeMs);
}

/** The modification time `real` had when it was last read in this turn, or undefined when it was not read. */
export function readInThisTurn(ctx: ToolContext, real: string): number | undefined {
  return readFiles(ctx).get(real);
}
