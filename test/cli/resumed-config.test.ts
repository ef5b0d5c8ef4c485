import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resumedConfigFrom } from '../../src/cli/resumed-config.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-resumed-config-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const turn = { id: 't-1', sessionId: 's-1' };

describe('resumedConfigFrom', () => {
  it('a turn stored before the record existed takes --config as before', () => {
    const file = join(dir, 'named.json');
    writeFileSync(file, JSON.stringify({ workspace: ['ws'] }));
    const { config, notes, workdir } = resumedConfigFrom({ config: file }, turn, dir);
    expect(config.file).toBe(file);
    expect(config.workspace).toEqual([join(dir, 'ws')]);
    expect(notes).toEqual([]);
    expect(workdir).toBeUndefined();
  });

  it('a turn that ran with no config file goes on with none, in its own folder, whatever this folder holds', () => {
    const ran = join(dir, 'ran');
    mkdirSync(ran);
    writeFileSync(join(dir, 'toolseam.json'), JSON.stringify({ workspace: ['other'] }));
    const { config, notes, workdir } = resumedConfigFrom({}, { ...turn, ranWith: { workdir: ran } }, dir);
    expect(config.file).toBeUndefined();
    expect(config.workspace).toEqual([]);
    expect(workdir).toBe(ran);
    expect(notes).toEqual([`turn t-1 goes on in ${ran} with no config file, as it ran.`]);
    expect(() =>
      resumedConfigFrom({ config: 'toolseam.json' }, { ...turn, ranWith: { workdir: ran } }, dir),
    ).toThrow(
      /turn t-1 ran with no config file; --config toolseam.json names another, so leave --config out/,
    );
  });

  it('says nothing when this folder and its config are the ones the turn ran with; a folder that is gone is refused', () => {
    const file = join(dir, 'toolseam.json');
    writeFileSync(file, '{}');
    const ranWith = { workdir: dir, file };
    expect(resumedConfigFrom({}, { ...turn, ranWith }, dir).notes).toEqual([]);
    expect(resumedConfigFrom({ config: 'toolseam.json' }, { ...turn, ranWith }, dir).notes).toEqual([]);
    const gone = { workdir: join(dir, 'gone'), file };
    expect(() => resumedConfigFrom({}, { ...turn, ranWith: gone }, dir)).toThrow(
      /ran in .*gone, which is no longer a folder/,
    );
  });
});
