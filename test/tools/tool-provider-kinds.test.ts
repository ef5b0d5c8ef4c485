import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOL_PROVIDER_KINDS } from './tool-provider.contract.js';

const here = import.meta.dirname;
const tools = join(here, '..', '..', 'src', 'tools');
/** The libraries of src/tools (notify: gateways and outbox the built-in notify tools use); every other folder is a provider kind. */
const LIBRARIES = ['registry', 'fields', 'arguments', 'notify'];

/** Each `*.contract.test.ts` below test/tools, with the provider kinds it runs the contract on. */
function contractRuns(): Array<readonly [file: string, kind: string]> {
  const files = readdirSync(here, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.contract.test.ts'),
  );
  return files.flatMap((file) => {
    const text = readFileSync(join(here, file), 'utf8');
    const kinds = [...text.matchAll(/describeToolProviderContract\(\s*'([^']+)'/g)].map(
      (m) => m[1] as string,
    );
    return kinds.map((kind) => [file, kind] as const);
  });
}

describe('the tool-provider contract', () => {
  it('runs on every listed kind of provider exactly once, and on no kind it does not list', () => {
    const runs = contractRuns();
    expect(runs.map(([, kind]) => kind).sort()).toEqual(Object.keys(TOOL_PROVIDER_KINDS).sort());
  });

  it('runs on every kind of provider src/tools has a folder for, from that folder of the tests', () => {
    const kinds = readdirSync(tools, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !LIBRARIES.includes(entry.name))
      .map((entry) => entry.name);
    expect(kinds).toEqual(expect.arrayContaining(['builtin', 'apps', 'mcp']));
    const folders = new Set(contractRuns().map(([file]) => file.split(sep)[0]));
    for (const kind of kinds) expect(folders, `no contract run in test/tools/${kind}/`).toContain(kind);
  });

  it('finds the runs it checks (the scan is not blind)', () => {
    expect(contractRuns()).toContainEqual([join('mcp', 'mcp-stdio.contract.test.ts'), 'mcp-stdio']);
  });
});
