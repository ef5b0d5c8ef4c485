import { describe, expect, it } from 'vitest';
import { tokenFile } from '../../src/server/server-token.js';

describe('where serve keeps its token', () => {
  it("beside a SQLite database, and in the user's toolseam folder for a postgres:// one", () => {
    expect(tokenFile('/data/toolseam.db', '/home/ana')).toBe('/data/toolseam.db.token');
    expect(tokenFile('postgres://ana@db.internal:5432/toolseam?schema=team', '/home/ana')).toBe(
      '/home/ana/.config/toolseam/serve.token',
    );
  });
});
