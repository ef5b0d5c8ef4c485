import { issueText, type ToolsPage, type ToolsPageIssue, type ToolsPageRow } from './tools-page.js';

/** The Tools page as text for a terminal: by group, each tool's names, origin, status and description, then the load failures. */
export function renderToolsPage(page: ToolsPage): string {
  const lines: string[] = [summary(page), ''];
  for (const { group, rows } of page.groups) {
    const own = group.own ? ' (platform)' : '';
    lines.push(`${group.key}${own}${group.purpose ? ` — ${group.purpose}` : ''}`);
    for (const row of rows) lines.push(...renderRow(row), '');
  }
  if (page.rows.length === 0) lines.push('No tools: no provider listed any.', '');
  if (page.failures.length > 0) {
    lines.push('Load failures');
    for (const f of page.failures) {
      const who = f.app && f.app !== f.provider ? `${f.provider} (app ${f.app})` : f.provider;
      lines.push(`  ${who}: ${f.message}`);
    }
  } else {
    lines.push('No load failures.');
  }
  return lines.join('\n');
}

function summary(page: ToolsPage): string {
  const count = (status: string) => page.rows.filter((r) => r.status === status).length;
  return (
    `${page.rows.length} tool(s): ${count('offered')} offered as declared, ${count('repaired')} repaired, ` +
    `${count('lifted')} with arguments as JSON text, ${count('excluded')} left out; ${page.failures.length} load failure(s).`
  );
}

function renderRow(row: ToolsPageRow): string[] {
  const names = row.wireName === row.name ? row.name : `${row.name}  (sent as ${row.wireName})`;
  const out = [`  ${names}`, `    ${statusLine(row)}`, `    provider ${row.provider}, app ${row.app}`];
  const derived = row.descriptionDerived ? ' (written by toolseam: the tool has none)' : '';
  out.push(`    description${derived}: ${row.description}`);
  for (const issue of row.issues) out.push(`    - ${issueLine(issue)}`);
  return out;
}

function statusLine(row: ToolsPageRow): string {
  switch (row.status) {
    case 'offered':
      return 'offered as declared';
    case 'repaired':
      return 'offered with a repaired schema (what changed is listed below)';
    case 'lifted':
      return `offered, with ${row.lifted.join(', ')} carried as JSON text`;
    case 'excluded':
      return `left out: ${row.reason ?? 'no reason recorded'}`;
  }
}

function issueLine(issue: ToolsPageIssue): string {
  const own = issue.rule === 'switched_off' || issue.rule === 'denied';
  return own ? issueText(issue) : `[${issue.action}] ${issueText(issue)}`;
}
