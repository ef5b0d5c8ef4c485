import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const web = resolve(import.meta.dirname, '../../web/src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

const sources = files(web).filter((f) => /\.(ts|tsx)$/.test(f));

describe("the page's source", () => {
  it('imports nothing from src/ (it uses only the HTTP API)', () => {
    const offenders = sources.filter((f) => /from\s+['"](\.\.\/)+src\//.test(readFileSync(f, 'utf8')));
    expect(sources.length).toBeGreaterThan(10);
    expect(offenders).toEqual([]);
  });

  it('never renders markup from text (no innerHTML, no dangerouslySetInnerHTML, no document.write)', () => {
    const offenders = sources.filter((f) =>
      /innerHTML|outerHTML|dangerouslySetInnerHTML|insertAdjacentHTML|document\.write|createContextualFragment/.test(
        readFileSync(f, 'utf8'),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('makes no link from text (every href is one of its own routes)', () => {
    const hrefs = sources.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/href=\{?([^\s>]+)/g)].map((m) => m[1]),
    );
    for (const href of hrefs) expect(href).toMatch(/^("#\/|\{?hashOf\()/);
  });
});
