import { isCosmeticRepair } from './cosmetic-repair.js';
import type { ExcludedTool, OfferedTool } from './tool-offer.js';

/** True when a model is offered the tool otherwise than its author declared it: a repair it would see, or a written description. */
export function seenAdjusted(tool: OfferedTool): boolean {
  return tool.descriptionDerived || tool.repairs.some((issue) => !isCosmeticRepair(issue));
}

/** How many tools the seam offers adjusted, and how many it leaves out. */
export interface SeamCounts {
  readonly adjusted: number;
  readonly leftOut: number;
}

/** Counts a prepared turn's adjusted and left-out tools (cosmetic repairs do not count). */
export function seamCounts(turn: {
  readonly offered: readonly OfferedTool[];
  readonly excluded: readonly ExcludedTool[];
}): SeamCounts {
  let adjusted = 0;
  for (const tool of turn.offered) if (seenAdjusted(tool)) adjusted += 1;
  return { adjusted, leftOut: turn.excluded.length };
}

/**
 * The one line a run says about the seam: how many tools models see adjusted and how many they are
 * not offered, and where the details are. Undefined when there is nothing a model would notice.
 */
export function seamSummaryLine(counts: SeamCounts): string | undefined {
  const { adjusted, leftOut } = counts;
  if (adjusted === 0 && leftOut === 0) return undefined;
  const tools = (n: number): string => `${n} tool${n === 1 ? '' : 's'}`;
  const them = (n: number): string => (n === 1 ? 'it' : 'them');
  const parts: string[] = [];
  if (adjusted > 0) parts.push(`${tools(adjusted)} adjusted so that every provider takes ${them(adjusted)}`);
  if (leftOut > 0) parts.push(`${tools(leftOut)} left out (models are not offered ${them(leftOut)})`);
  const what = adjusted > 0 && leftOut > 0 ? 'how and why' : adjusted > 0 ? 'what changed' : 'why';
  return `${parts.join(', ')}; \`toolseam tools\` shows ${what} (--verbose lists each one here)`;
}
