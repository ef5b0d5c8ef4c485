import type { ToolRow } from '../api-types.js';
import { visibleText } from '../visible-text.js';

const FIXED_WORDS: Record<NonNullable<ToolRow['fixed']>, string> = {
  disabledTools: 'Off: set by the config (disabledTools)',
  denyList: 'Off: denied by the config (denyList)',
};

/** A tool's on/off switch, or, for a tool the config fixes, the words saying so (no switch). */
export function ToolSwitch({
  row,
  busy,
  onTurn,
}: {
  row: ToolRow;
  busy: boolean;
  onTurn: (on: boolean) => void;
}) {
  if (row.fixed) return <span class="fixed">{FIXED_WORDS[row.fixed]}</span>;
  return (
    <label class="switch">
      <input
        type="checkbox"
        role="switch"
        checked={row.on}
        aria-checked={row.on}
        disabled={busy}
        aria-label={`Use ${visibleText(row.name)}`}
        onChange={(e) => onTurn(e.currentTarget.checked)}
      />
      <span aria-hidden="true">{row.on ? 'On' : 'Off'}</span>
    </label>
  );
}
