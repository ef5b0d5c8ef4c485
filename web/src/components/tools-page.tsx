import { useLayoutEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { ToolRow, ToolsPageData } from '../api-types.js';
import { failureText } from '../failure-text.js';
import { visibleText } from '../visible-text.js';
import { ErrorLine } from './error-line.js';
import { ToolRowView } from './tool-row-view.js';

/** The Tools page: every tool, where it stands and why, and its switch (applied from the next turn). */
export function ToolsPage() {
  const [page, setPage] = useState<ToolsPageData | undefined>();
  const [error, setError] = useState<string | undefined>();
  // Asked before the first paint, not after it: a busy machine can hold an effect for frames.
  useLayoutEffect(() => {
    api.tools().then(setPage, (err) => setError(failureText(err)));
  }, []);

  const changed = (row: ToolRow) =>
    setPage((p) => p && { ...p, tools: p.tools.map((t) => (t.name === row.name ? row : t)) });
  return (
    <section class="panel" aria-labelledby="tools-title">
      <h1 id="tools-title">Tools</h1>
      <p class="quiet">
        A switch applies from the next turn. Tools the config switches off or denies are the owner's to
        change.
      </p>
      <ErrorLine error={error} />
      {page && page.failures.length > 0 && (
        <section class="failures" aria-labelledby="failures-title">
          <h2 id="failures-title">Providers that failed to load</h2>
          <ul>
            {page.failures.map((f, i) => (
              <li key={`${f.provider}:${i}`}>
                <strong>{visibleText(f.provider)}</strong>: {visibleText(f.message)}
              </li>
            ))}
          </ul>
        </section>
      )}
      {page === undefined ? (
        !error && <p class="quiet">Loading…</p>
      ) : (
        <ul class="tools">
          {page.tools.map((row) => (
            <ToolRowView key={row.name} row={row} onChanged={changed} />
          ))}
        </ul>
      )}
    </section>
  );
}
