import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

// The person's own editor setting, as a ~/.gitconfig would give it; `sleep` stands in for an editor that
// waits for someone to type (vim without a terminal waits until it is killed).
const REPO =
  'git init -q . && git config user.email a@example.com && git config user.name A && ' +
  'git config core.editor "sleep 60; true"';

describe('bash: a command that would open an editor', () => {
  it('git commit without -m ends at once and says to give the message on the command line', async () => {
    const started = Date.now();
    const result = await tools.invoke(
      'bash',
      { command: `${REPO} && git commit -q --allow-empty`, timeout_seconds: 10 },
      tools.turn(),
    );
    expect(result.data).toMatchObject({ timedOut: false });
    expect(Date.now() - started).toBeLessThan(8000);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('No editor can be opened here');
    expect(result.content).toContain('git commit -m');
  }, 20_000);

  it('EDITOR and VISUAL, which other programs read, name the same editor that opens nothing', async () => {
    const result = await tools.invoke(
      'bash',
      { command: 'echo "$EDITOR" | grep -ci "no editor"; echo "$VISUAL" | grep -ci "no editor"' },
      tools.turn(),
    );
    expect(result.content).toBe('1\n1');
  });
});
