import { describe, expect, it } from 'vitest';
import { BoundedOutput } from '../../src/tools/builtin/bounded-output.js';
import { redactSecrets, secretForms } from '../../src/tools/redact-secrets.js';

const TOKEN = 'ghp_4f9Qz81LmX0aTbW2';
const secrets = new Map([['GITHUB_TOKEN', TOKEN]]);
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/** Whether any base64 run left in `text` still decodes to something holding the token. */
function leaks(text: string): boolean {
  return (text.match(/[A-Za-z0-9+/]{8,}={0,2}/g) ?? []).some((run) =>
    Buffer.from(run, 'base64').toString('latin1').includes(TOKEN.slice(2, -2)),
  );
}

describe('a secret a command prints encoded', () => {
  it('is hidden as base64, at each of the three places it can start in a block', () => {
    for (const prefix of ['', 'u:', 'me:']) {
      const printed = `Authorization: Basic ${b64(`${prefix}${TOKEN}`)}\n`;
      const shown = redactSecrets(printed, secrets);
      expect(shown).toContain('[secret:GITHUB_TOKEN]');
      expect(leaks(shown)).toBe(false);
    }
  });

  it('is hidden as URL-safe base64, hex in either case and percent-encoding', () => {
    const odd = 'p@ss/w0rd+Zq?9';
    const named = new Map([['DB_PASSWORD', odd]]);
    const encoded = [
      Buffer.from(`x${odd}`).toString('base64url'),
      Buffer.from(odd).toString('hex'),
      Buffer.from(odd).toString('hex').toUpperCase(),
      encodeURIComponent(odd),
    ];
    for (const form of encoded) {
      const shown = redactSecrets(`value=${form};`, named);
      expect(shown).toContain('[secret:DB_PASSWORD]');
      expect(shown).not.toContain(form);
    }
  });

  it('leaves ordinary text alone, and looks for no encoded form too short to tell from it', () => {
    expect(redactSecrets('nothing secret here: aGVsbG8gd29ybGQ=', secrets)).toBe(
      'nothing secret here: aGVsbG8gd29ybGQ=',
    );
    for (const form of secretForms('abcd').slice(1)) expect(form.length).toBeGreaterThanOrEqual(8);
  });

  it('stays hidden when a long output is cut around it', () => {
    const output = new BoundedOutput(secrets, 80, 80);
    output.push(`${'a'.repeat(40)} ${b64(`u:${TOKEN}`)} ${'b'.repeat(200)} ${b64(TOKEN)} ${'c'.repeat(45)}`);
    const { text, cut } = output.finish();
    expect(cut).toBe(true);
    expect(leaks(text)).toBe(false);
  });
});
