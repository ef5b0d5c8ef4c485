import type { Logger } from '../../core/logger.js';
import type { WireTool } from '../../core/model.js';
import { describeOrigin, type OfferedTool, wholeWireTool } from '../../seam/index.js';

/** What each offered tool's wire form became once checked (a tool is checked once per process). */
const checked = new WeakMap<WireTool, WireTool>();

/**
 * An offered tool's wire form as a request carries it: a string holding half of a character (text cut
 * inside an emoji) is mended with U+FFFD, since one such string makes Anthropic refuse the whole request
 * without naming the tool. The first time a tool needs it, one log line names the tool and the places.
 */
export function sendableTool(tool: OfferedTool, logger: Logger): WireTool {
  const known = checked.get(tool.wire);
  if (known !== undefined) return known;
  const whole = wholeWireTool(tool.wire);
  checked.set(tool.wire, whole.tool);
  if (whole.mended.length > 0) {
    const places = whole.mended.map((p) => `\`${p}\``).join(', ');
    logger.log({
      level: 'warn',
      scope: 'seam',
      message:
        `${describeOrigin(tool.origin)}: tool ${JSON.stringify(tool.name)} holds half of a character (a text cut inside an emoji) in ${places}; ` +
        'it is sent with U+FFFD in its place. Its author should cut text at whole characters.',
      fields: { tool: tool.name, mended: whole.mended },
    });
  }
  return whole.tool;
}
