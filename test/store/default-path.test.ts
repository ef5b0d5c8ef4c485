import { describe, expect, it } from 'vitest';
import { defaultDatabasePath } from '../../src/store/index.js';

describe('defaultDatabasePath', () => {
  it('uses $XDG_DATA_HOME when it is an absolute path', () => {
    const path = defaultDatabasePath({
      env: { XDG_DATA_HOME: '/data/me' },
      platform: 'linux',
      home: '/home/me',
    });
    expect(path).toBe('/data/me/toolseam/toolseam.db');
  });

  it('falls back to ~/.local/share on Linux, and ignores a relative XDG_DATA_HOME', () => {
    expect(defaultDatabasePath({ env: {}, platform: 'linux', home: '/home/me' })).toBe(
      '/home/me/.local/share/toolseam/toolseam.db',
    );
    expect(defaultDatabasePath({ env: { XDG_DATA_HOME: 'rel' }, platform: 'linux', home: '/home/me' })).toBe(
      '/home/me/.local/share/toolseam/toolseam.db',
    );
  });

  it('uses Application Support on macOS', () => {
    expect(defaultDatabasePath({ env: {}, platform: 'darwin', home: '/Users/me' })).toBe(
      '/Users/me/Library/Application Support/toolseam/toolseam.db',
    );
  });

  it('uses %APPDATA% on Windows, else the roaming folder under the home', () => {
    expect(
      defaultDatabasePath({
        env: { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' },
        platform: 'win32',
        home: 'C:\\Users\\me',
      }),
    ).toBe('C:\\Users\\me\\AppData\\Roaming\\toolseam\\toolseam.db');
    expect(defaultDatabasePath({ env: {}, platform: 'win32', home: 'C:\\Users\\me' })).toBe(
      'C:\\Users\\me\\AppData\\Roaming\\toolseam\\toolseam.db',
    );
  });

  it('lets $TOOLSEAM_DB override everything', () => {
    const env = { TOOLSEAM_DB: '/tmp/elsewhere.db', XDG_DATA_HOME: '/data/me' };
    expect(defaultDatabasePath({ env, platform: 'linux', home: '/home/me' })).toBe('/tmp/elsewhere.db');
  });
});
