import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';

/** Where the session store lives when no path is given. */
export interface DataDirEnvironment {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly platform?: NodeJS.Platform;
  readonly home?: string;
}

/**
 * The default database file: `$TOOLSEAM_DB` when set; else `$XDG_DATA_HOME/toolseam/toolseam.db`
 * (outside Windows, when absolute); else the platform's data folder — `~/Library/Application Support`
 * on macOS, `%APPDATA%` on Windows, `~/.local/share` elsewhere.
 */
export function defaultDatabasePath(where: DataDirEnvironment = {}): string {
  const env = where.env ?? process.env;
  const platform = where.platform ?? process.platform;
  const home = where.home ?? homedir();
  const explicit = env['TOOLSEAM_DB'];
  if (explicit) return explicit;
  if (platform === 'win32') {
    const appData = env['APPDATA'] || win32.join(home, 'AppData', 'Roaming');
    return win32.join(appData, 'toolseam', 'toolseam.db');
  }
  const xdg = env['XDG_DATA_HOME'];
  if (xdg && posix.isAbsolute(xdg)) return join(xdg, 'toolseam', 'toolseam.db');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'toolseam', 'toolseam.db');
  return join(home, '.local', 'share', 'toolseam', 'toolseam.db');
}
