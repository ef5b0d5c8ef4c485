import { describe, expect, it } from 'vitest';
import { parseMcpServers, parseMcpTimeouts } from '../../../src/tools/mcp/mcp-config.js';

describe('the mcpServers section', () => {
  it('reads stdio and Streamable HTTP entries in the Claude Desktop shape', () => {
    const servers = parseMcpServers(
      {
        notes: {
          command: 'node',
          args: ['server.js', '--db', 'notes.db'],
          env: { TOKEN: 't' },
          cwd: 'servers/notes',
        },
        web: {
          url: 'https://mcp.example.test/mcp',
          headers: { Authorization: 'Bearer k' },
          timeouts: { callMs: 5000 },
        },
        bare: { command: 'notes-mcp' },
        off: { command: 'x', disabled: true },
        typed: { type: 'stdio', command: 'y' },
      },
      { source: 'toolseam.json', baseDir: '/home/me' },
    );
    expect(servers).toEqual([
      {
        name: 'notes',
        kind: 'stdio',
        command: 'node',
        args: ['server.js', '--db', 'notes.db'],
        env: { TOKEN: 't' },
        cwd: '/home/me/servers/notes',
      },
      {
        name: 'web',
        kind: 'http',
        url: 'https://mcp.example.test/mcp',
        headers: { Authorization: 'Bearer k' },
        timeouts: { callMs: 5000 },
      },
      { name: 'bare', kind: 'stdio', command: 'notes-mcp', args: [], env: {} },
      { name: 'typed', kind: 'stdio', command: 'y', args: [], env: {} },
    ]);
    expect(parseMcpServers(undefined)).toEqual([]);
  });

  it.each([
    [['a', 'b'], /must be an object mapping a server name/],
    [{ notes: 'node server.js' }, /"mcpServers\.notes" in toolseam\.json: must be an object with "command"/],
    [{ notes: {} }, /needs "command" \(a program toolseam starts, with "args"\) or "url"/],
    [{ notes: { command: 'a', url: 'http://x' } }, /has both "command" and "url"/],
    [{ notes: { command: '' } }, /"command" must be a non-empty string/],
    [{ notes: { command: 'a', args: 'b c' } }, /"args" must be a list of strings/],
    [{ notes: { command: 'a', args: ['b', 3] } }, /"args"\[1\] must be a string, not number 3/],
    [{ notes: { command: 'a', env: { PORT: 8080 } } }, /"env"\.PORT must be a string, not number 8080/],
    [{ notes: { command: 'a', headers: {} } }, /"headers" has no meaning for a stdio server/],
    [{ notes: { url: 'http://x', args: [] } }, /"args" has no meaning for an HTTP server/],
    [{ notes: { url: 'not a url' } }, /"url" "not a url" is not a valid URL/],
    [{ notes: { url: 'ftp://x/mcp' } }, /must start with http:\/\/ or https:\/\//],
    [{ notes: { url: 'http://x', type: 'sse' } }, /SSE transport is not supported/],
    [{ 'a/b': { command: 'a' } }, /cannot contain "\/"/],
    [{ ' ': { command: 'a' } }, /non-blank name/],
    [{ notes: { command: 'a', timeouts: { callMs: -1 } } }, /"timeouts\.callMs" must be a positive number/],
    [{ notes: { command: 'a', timeouts: { call: 5 } } }, /"timeouts\.call" is not a timeout toolseam knows/],
  ])('refuses a bad entry with a clear error (%j)', (section, message) => {
    expect(() => parseMcpServers(section, { source: 'toolseam.json' })).toThrow(message);
  });

  it('quotes a bad URL without the user and password in it', () => {
    let message = '';
    try {
      parseMcpServers({ web: { url: 'https://alice:hunter2-secret@host:99999/mcp' } });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('"url" "https://…@host:99999/mcp" is not a valid URL');
    expect(message).not.toContain('alice');
    expect(message).not.toContain('hunter2-secret');
  });

  it('reads host-wide timeouts with the same rules', () => {
    expect(parseMcpTimeouts({ startMs: 100, listMs: 200 })).toEqual({ startMs: 100, listMs: 200 });
    expect(() => parseMcpTimeouts({ startMs: 'soon' }, 'toolseam.json')).toThrow(
      'toolseam.json: "mcpTimeouts.startMs" must be a positive number of milliseconds.',
    );
  });
});
