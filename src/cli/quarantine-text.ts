import type { QuarantineRecord } from '../core/session-records.js';
import { describeModel } from '../core/turn-model.js';
import { visible } from './visible-text.js';

/** The Tools page's section on quarantined tools: each with its model, since when, the provider's words and how to lift it. */
export function quarantineSection(quarantined: readonly QuarantineRecord[]): string {
  if (quarantined.length === 0) return 'No tool is quarantined.';
  const lines = [
    'Quarantined (a model provider refused the definition toolseam sent; not offered on that model until switched back on)',
  ];
  for (const q of quarantined) {
    lines.push(`  ${visible(q.tool)}  on ${visible(describeModel(q))}, since ${q.createdAt}`);
    lines.push(`    the provider said: ${q.said === '' ? '(nothing)' : visible(q.said)}`);
    lines.push(
      `    lift: toolseam tools --on ${visible(q.tool)} (or its switch on the Tools page of toolseam serve)`,
    );
  }
  return lines.join('\n');
}

/** One line per lifted quarantine: the tool, the model it is offered on again, and what the provider had said. */
export function liftedLines(lifted: readonly QuarantineRecord[]): string {
  return lifted
    .map((q) => {
      const said = q.said === '' ? '' : ` (it had said: ${visible(q.said)})`;
      return `${visible(q.tool)}: offered again on ${visible(describeModel(q))}${said}`;
    })
    .join('\n');
}
