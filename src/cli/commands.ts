import type { Command } from './command.js';

/** One entry of the command table. */
export interface CommandEntry {
  readonly summary: string;
  readonly load: () => Promise<Command>;
}

/**
 * Every subcommand, loaded lazily so one command's dependencies (SDKs, SQLite) never slow another's
 * start. Add a command with one line here and its own `<name>-command.ts` file.
 */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  chat: {
    summary: 'talk to the assistant with every configured tool (-m TEXT for one message)',
    load: async () => (await import('./chat-command.js')).chatCommand,
  },
  sessions: {
    summary: 'list sessions, waiting approvals and interrupted turns',
    load: async () => (await import('./sessions-command.js')).sessionsCommand,
  },
  resume: {
    summary: 'continue a turn (or subagent batch) whose process stopped before it finished',
    load: async () => (await import('./resume-command.js')).resumeCommand,
  },
  approve: {
    summary: 'answer a waiting approval from any terminal (approve ID yes|no|always)',
    load: async () => (await import('./approve-command.js')).approveCommand,
  },
  automations: {
    summary: 'list the automations with their next runs and last results',
    load: async () => (await import('./automations-command.js')).automationsCommand,
  },
  'run-due': {
    summary: 'run the automations that are due now, once, and exit (for a system scheduler)',
    load: async () => (await import('./run-due-command.js')).runDueCommand,
  },
  grants: {
    summary: 'list the standing permissions "always" gave, and withdraw one (--revoke ID)',
    load: async () => (await import('./grants-command.js')).grantsCommand,
  },
  users: {
    summary: 'add, list and revoke the people `serve` serves, each with their own token (users add NAME)',
    load: async () => (await import('./users-command.js')).usersCommand,
  },
  conform: {
    summary: 'show what every model provider is sent for a tool list (conform FILE)',
    load: async () => (await import('./conform-command.js')).conformCommand,
  },
  'dev-provider': {
    summary: 'run a loopback model provider stand-in',
    load: async () => (await import('./dev-provider-command.js')).devProviderCommand,
  },
  'mcp-serve': {
    summary: "serve toolseam's tools to another agent over MCP (stdio, or --http PORT)",
    load: async () => (await import('./mcp-serve-command.js')).mcpServeCommand,
  },
  serve: {
    summary: 'serve the HTTP API and the web page (--port 7878, --host 127.0.0.1)',
    load: async () => (await import('./serve-command.js')).serveCommand,
  },
  worker: {
    summary: 'run turns, batches and due automations from the job queue of a hosted deployment',
    load: async () => (await import('./worker-command.js')).workerCommand,
  },
  tools: { summary: 'the Tools page', load: async () => (await import('./tools-command.js')).toolsCommand },
  notify: {
    summary:
      'try a notify channel (notify test CHANNEL), list the outbox (notify outbox), send what is due (notify deliver)',
    load: async () => (await import('./notify-command.js')).notifyCommand,
  },
  retrieval: {
    summary: 'measure tool retrieval on a benchmark dataset (retrieval eval FILE)',
    load: async () => (await import('./retrieval-command.js')).retrievalCommand,
  },
};
