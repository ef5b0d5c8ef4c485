import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { NO_KEYS } from '../cli/spawn-toolseam.js';

const app = join(import.meta.dirname, '..', 'support', 'serve-app');

/** A folder with a toolseam.json installing the serve app, its database and its notes file. */
export function serveFolder(config: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-mcp-serve-'));
  const db = join(dir, 'sessions.db');
  const notes = join(dir, 'notes.txt');
  writeFileSync(
    join(dir, 'toolseam.json'),
    JSON.stringify({ apps: [app], db, shell: { sandbox: 'off' }, ...config }),
  );
  return {
    dir,
    db,
    /** The environment the server runs in: no provider keys, the app's notes file. */
    env: { ...NO_KEYS, SERVE_APP_NOTES: notes },
    /** The notes post_note left, one per run. */
    notes: () => (existsSync(notes) ? readFileSync(notes, 'utf8').split('\n').filter(Boolean) : []),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The SDK's Client, able to put questions to its person when `answer` is given. */
export function sdkClient(
  answer?: (message: string) => ElicitResult,
  name = 'process-client',
  version = '2.0.0',
) {
  const client = new Client({ name, version }, { capabilities: answer ? { elicitation: { form: {} } } : {} });
  const asked: string[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return answer(request.params.message);
    });
  }
  return { client, asked };
}

/** The text of a tool result's first content item. */
export function firstText(result: object): string {
  const [first] = ((result as { content?: unknown }).content ?? []) as { text?: string }[];
  return first?.text ?? '';
}

/** The approval id a needs-approval error names. */
export function approvalIdIn(text: string): string {
  const id = /approval (ap-\w+)/.exec(text)?.[1];
  if (id === undefined) throw new Error(`no approval id in: ${text}`);
  return id;
}
