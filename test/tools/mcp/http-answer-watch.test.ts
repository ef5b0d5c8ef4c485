import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type BrokenAnswer, watchAnswerStreams } from '../../../src/tools/mcp/http-answer-watch.js';
import { createMcpProvider, type McpToolProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { notesServer, statefulHttpServer } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';

const open: McpToolProvider[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

describe('a Streamable HTTP server that goes down in the middle of a call', () => {
  it('fails the call when its answer stream breaks off, not at the call timeout as unanswered', async () => {
    let web: Awaited<ReturnType<typeof statefulHttpServer>> | undefined;
    const build = () => {
      const mcp = new McpServer({ name: 'fragile', version: '1.0.0' }, { capabilities: { logging: {} } });
      mcp.registerTool(
        'work',
        { description: 'Starts working, then its server goes down.' },
        async (extra) => {
          // The answer stream is open (a progress message went out on it) when the server goes down.
          await extra.sendNotification({
            method: 'notifications/message',
            params: { level: 'info', data: 'working' },
          });
          void web?.stop();
          return new Promise<never>(() => {});
        },
      );
      return mcp;
    };
    web = await statefulHttpServer(build);
    try {
      // A call timeout far past what the fix needs: only the old behaviour waits it out.
      const provider = createMcpProvider(
        { name: 'fragile', kind: 'http', url: web.url, headers: {} },
        { timeouts: { callMs: 20_000 } },
      );
      open.push(provider);
      await provider.listTools();
      const result = await provider.invoke('mcp/fragile/work', {}, toolContext());
      expect(result.isError).toBe(true);
      expect(result.notRun).toBeUndefined();
      expect(result.content).toMatch(
        /^Error: MCP server "fragile" stopped while running mcp\/fragile\/work \(its answer broke off before it was complete \(.+\)\)\. /,
      );
      expect(result.content).toContain(
        'Whether the call did anything is unknown; toolseam connects to it again',
      );
    } finally {
      await web.stop();
    }
  });

  it('leaves a session alone whose answers all came, however their streams end', async () => {
    const web = await statefulHttpServer(() => notesServer('web'));
    try {
      const provider = createMcpProvider({ name: 'web', kind: 'http', url: web.url, headers: {} });
      open.push(provider);
      for (const query of ['plans', 'plants']) {
        const result = await provider.invoke('mcp/web/lookup', { query }, toolContext());
        expect(result.isError).toBe(false);
      }
      await new Promise((done) => setImmediate(done));
      expect(provider.connected).toBe(true);
      expect(web.sessions()).toBe(1);
    } finally {
      await web.stop();
    }
  });

  it.each([
    ['an event stream', {}],
    ['an event stream with event ids', { resumable: true }],
    ['one JSON answer', { json: true }],
  ])(
    'answers a call whose result is larger than toolseam takes with an error, and stays connected (%s)',
    async (_how, shape) => {
      const build = () => {
        const mcp = new McpServer({ name: 'big', version: '1.0.0' });
        mcp.registerTool('flood', { description: 'Returns a huge text.' }, async () => ({
          content: [{ type: 'text', text: 'x'.repeat(300_000) }],
        }));
        mcp.registerTool('ping', { description: 'Answers pong.' }, async () => ({
          content: [{ type: 'text', text: 'pong' }],
        }));
        return mcp;
      };
      const web = await statefulHttpServer(build, shape);
      try {
        const provider = createMcpProvider(
          { name: 'big', kind: 'http', url: web.url, headers: {} },
          { maxMessageBytes: 100_000 },
        );
        open.push(provider);
        const result = await provider.invoke('mcp/big/flood', {}, toolContext());
        expect(result).toMatchObject({
          isError: true,
          data: { code: 'mcp_answer_too_large', server: 'big', tool: 'mcp/big/flood', limitBytes: 100_000 },
        });
        expect(result.content).toContain(
          'answered mcp/big/flood with more than 100,000 bytes, the most toolseam takes in one message',
        );
        expect(provider.connected).toBe(true);
        expect((await provider.invoke('mcp/big/ping', {}, toolContext())).content).toBe('pong');
        expect(provider.connected).toBe(true);
        expect(web.sessions()).toBe(1);
      } finally {
        await web.stop();
      }
    },
  );
});

describe('a Streamable HTTP server whose answer stream carries event ids (resumable)', () => {
  type Web = Awaited<ReturnType<typeof statefulHttpServer>>;

  /** A resumable server whose `work` tool sends a progress message (an event with an id), then `then`. */
  async function resumable(then: (web: Web, closeStream: () => void) => Promise<string>) {
    let web: Web | undefined;
    const build = () => {
      const mcp = new McpServer({ name: 'fragile', version: '1.0.0' }, { capabilities: { logging: {} } });
      mcp.registerTool('work', { description: 'Works, and its server goes down.' }, async (extra) => {
        await extra.sendNotification({
          method: 'notifications/message',
          params: { level: 'info', data: 'working' },
        });
        const text = await then(web as Web, () => extra.closeSSEStream?.());
        return { content: [{ type: 'text', text }] };
      });
      return mcp;
    };
    web = await statefulHttpServer(build, { resumable: true });
    // A call timeout far past what the fix needs: only the old behaviour waits it out.
    const provider = createMcpProvider(
      { name: 'fragile', kind: 'http', url: web.url, headers: {} },
      { timeouts: { callMs: 20_000 } },
    );
    open.push(provider);
    await provider.listTools();
    return { web, provider };
  }

  it('fails the call once the resume cannot reach the server that went down, not at the call timeout', async () => {
    const { web, provider } = await resumable(async (server) => {
      void server.stop();
      return new Promise<never>(() => {});
    });
    try {
      const result = await provider.invoke('mcp/fragile/work', {}, toolContext());
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(
        /^Error: MCP server "fragile" stopped while running mcp\/fragile\/work \(its answer broke off before it was complete \(it could not be resumed: fetch failed \(.*ECONNREFUSED.*\)\)\)\. /,
      );
    } finally {
      await web.stop();
    }
  });

  it('fails the call when the server turns the resume down with 405, as the SDK then stops trying', async () => {
    const { web, provider } = await resumable(async (server, closeStream) => {
      server.refuse(405);
      closeStream();
      return new Promise<never>(() => {});
    });
    try {
      const result = await provider.invoke('mcp/fragile/work', {}, toolContext());
      expect(result.isError).toBe(true);
      expect(result.content).toContain(
        'its answer broke off before it was complete (it could not be resumed: the server answered 405',
      );
    } finally {
      await web.stop();
    }
  });

  it('takes the answer from a resumed stream, and keeps the session', async () => {
    const { web, provider } = await resumable(async (_server, closeStream) => {
      closeStream();
      return 'done after a resume';
    });
    try {
      const result = await provider.invoke('mcp/fragile/work', {}, toolContext());
      expect(result).toMatchObject({ isError: false, content: 'done after a resume' });
      await new Promise((done) => setImmediate(done));
      expect(provider.connected).toBe(true);
    } finally {
      await web.stop();
    }
  });
});

describe('the answer watch reads an event stream as SSE does', () => {
  /** What the watch says of one event-stream answer to the call with id 7, read to its end. */
  async function watch(events: string): Promise<BrokenAnswer[]> {
    const said: BrokenAnswer[] = [];
    const base = async () =>
      new Response(events, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    const fetchWatched = watchAnswerStreams(1 << 20, (broken) => said.push(broken), base);
    const init = { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call' }) };
    const response = await fetchWatched('http://127.0.0.1:9/mcp', init);
    await response.text();
    await new Promise((done) => setImmediate(done));
    return said;
  }

  it('takes an answer whose JSON is spread over several data lines of one event', async () => {
    const answer = [
      'data: {"jsonrpc":"2.0",',
      'data: "id":7,',
      'data: "result":{"content":[]}}',
      '',
      '',
    ].join('\n');
    expect(await watch(`event: message\n${answer}`)).toEqual([]);
  });

  it('takes an empty event id, or one on an event without data, as no id to resume from (as the SDK does)', async () => {
    const note = 'data: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n';
    const ended = [{ kind: 'broke_off', why: 'it ended' }];
    expect(await watch(`id:\n${note}\n`)).toEqual(ended);
    expect(await watch(`id: \n${note}\n`)).toEqual(ended);
    expect(await watch(`id: 4\n\n${note}\n`)).toEqual(ended);
    expect(await watch(`id: 4\n${note}`)).toEqual(ended);
    // An event with data and an id is one the SDK resumes from: the watch leaves it to the resume.
    expect(await watch(`id: 4\n${note}\n`)).toEqual([]);
  });

  it('still says so when the stream ends with no answer to the call', async () => {
    const other = 'data: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n';
    expect(await watch(other)).toEqual([{ kind: 'broke_off', why: 'it ended' }]);
  });
});
