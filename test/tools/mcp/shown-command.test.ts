import { describe, expect, it } from 'vitest';
import { shownCommand } from '../../../src/tools/mcp/shown-command.js';

describe('shownCommand', () => {
  it('hides credential values in flags, settings and bare tokens, and keeps the rest', () => {
    expect(
      shownCommand('npx', [
        '-y',
        '@modelcontextprotocol/server-github',
        '--api-key',
        'abc123',
        '--token=ghp_abcdef',
        'GITHUB_PERSONAL_ACCESS_TOKEN=xyz',
        'sk-live-123',
        'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7',
        '--port',
        '8080',
        '/home/ana/projects',
        'a-very-long-package-name-for-an-mcp-server',
      ]),
    ).toBe(
      'npx -y @modelcontextprotocol/server-github --api-key *** --token=*** GITHUB_PERSONAL_ACCESS_TOKEN=*** *** *** --port 8080 /home/ana/projects a-very-long-package-name-for-an-mcp-server',
    );
  });

  it('hides credentials inside an argument: URL passwords, key-like query values and header values', () => {
    expect(
      shownCommand('npx', [
        'mcp-remote',
        'https://ana:s3cret@mcp.example.com/sse?api_key=k123&region=eu&access_token=t9',
        '--header',
        'Authorization: Bearer abc.def',
        '-H',
        'X-Api-Key:plain',
        '--url=postgres://app:pw@db.local:5432/main',
        'curl -H "Authorization: Basic dXNlcjpwYXNz"',
        'https://example.com/docs?page=2',
      ]),
    ).toBe(
      'npx mcp-remote https://ana:***@mcp.example.com/sse?api_key=***&region=eu&access_token=*** --header Authorization: *** -H X-Api-Key: *** --url=postgres://app:***@db.local:5432/main curl -H "Authorization: Basic ***" https://example.com/docs?page=2',
    );
  });

  it('does not hide the next flag after a credential flag given without a value', () => {
    expect(shownCommand('server', ['--use-auth', '--verbose'])).toBe('server --use-auth --verbose');
  });
});
