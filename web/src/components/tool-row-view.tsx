import { useState } from 'preact/hooks';
import { api } from '../api.js';
import type { ToolRow } from '../api-types.js';
import { failureText } from '../failure-text.js';
import { visibleText } from '../visible-text.js';
import { ErrorLine } from './error-line.js';
import { ToolSwitch } from './tool-switch.js';

/** One tool: its names, provider, status and why, description, quarantine, and its switch. */
export function ToolRowView({ row, onChanged }: { row: ToolRow; onChanged: (row: ToolRow) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const name = visibleText(row.name);

  const turn = async (on: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      onChanged(await api.switchTool(row.name, on));
    } catch (err) {
      setError(failureText(err));
    } finally {
      setBusy(false);
    }
  };
  const group = typeof row.group === 'string' ? row.group : row.group.key;
  return (
    <li class={`tool ${row.on ? 'on' : 'off'}`}>
      <div class="tool-head">
        <h2 class="tool-name">{name}</h2>
        <ToolSwitch row={row} busy={busy} onTurn={turn} />
      </div>
      <dl>
        <dt>Status</dt>
        <dd>{visibleText(row.status)}</dd>
        {row.why && (
          <>
            <dt>Why</dt>
            <dd>{visibleText(row.why)}</dd>
          </>
        )}
        <dt>Wire name</dt>
        <dd>
          <code>{visibleText(row.wireName)}</code>
        </dd>
        <dt>Provider</dt>
        <dd>
          {visibleText(row.provider)}
          {row.app && row.app !== row.provider ? ` · app ${visibleText(row.app)}` : ''}
          {group ? ` · ${visibleText(group)}` : ''}
        </dd>
      </dl>
      <p class="description">{visibleText(row.description)}</p>
      {row.quarantine && (
        <div class="quarantine">
          <p>
            Kept out: {visibleText(row.quarantine.provider)} ({visibleText(row.quarantine.model)}) refused it,
            saying: “{visibleText(row.quarantine.said)}”
          </p>
          <button type="button" disabled={busy} onClick={() => turn(true)}>
            Try {name} again
          </button>
        </div>
      )}
      <ErrorLine error={error} />
    </li>
  );
}
