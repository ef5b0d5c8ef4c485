import { parseArgs } from 'node:util';
import { InputError } from '../core/errors.js';
import { loadScript, type ScriptTurn, type StandIn, startStandIn } from '../testing/index.js';
import type { Command } from './command.js';
import { negativeValuesJoined } from './negative-values.js';
import { parseArgsSaid } from './parse-args-said.js';

const USAGE = `usage: toolseam dev-provider --family openai|anthropic|bedrock [--mode gemini] [--port N] [--host H]
                              [--script FILE] [--reject TOOL]...
Runs a loopback model provider that real SDK clients can talk to. With --script it plays those turns
(a JSON list); without one it echoes each user message. --reject makes it refuse any request offering
that tool, as a provider refuses a bad tool definition.`;

/** Where the command writes and what stops it (the process's signals, or a test's). */
export interface DevProviderIo {
  readonly out: (line: string) => void;
  readonly signal: AbortSignal;
  /** Called once the stand-in listens. */
  readonly onListening?: (standIn: StandIn) => void;
}

function port(text: string | undefined): number {
  if (text === undefined) return 0;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new InputError(`--port must be a port number from 0 to 65535; got "${text}".`);
  }
  return value;
}

/** What to tell the person when the server cannot listen where they asked; anything else stays as it is. */
function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const where = `${host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return new InputError(`${where} is already in use; pick another --port (0 = any free port).`);
    case 'EACCES':
      return new InputError(
        `this user may not listen on ${where}; use a port above 1023, or --port 0 for any free port.`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new InputError(
        `--host ${host} is not an address of this machine (${code}); use 127.0.0.1 (the default) or another local address.`,
      );
    default:
      return error;
  }
}

/** Runs the stand-in until `io.signal` aborts; returns the exit code. */
export async function runDevProvider(argv: string[], io: DevProviderIo): Promise<number> {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new InputError(`${parseArgsSaid(error)} Run \`toolseam dev-provider --help\` for the options.`);
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const family = values.family;
  if (family !== 'openai' && family !== 'anthropic' && family !== 'bedrock') {
    throw new InputError(
      `--family must be openai, anthropic or bedrock${family ? `; got "${family}"` : ''} (\`toolseam dev-provider --help\` shows the options).`,
    );
  }
  if (values.mode !== undefined && values.mode !== 'gemini') {
    throw new InputError(
      `--mode can only be gemini (Gemini's OpenAI-compatible endpoint); got "${values.mode}".`,
    );
  }
  const script: ScriptTurn[] = values.script ? await loadScript(values.script) : [];
  const at = { port: port(values.port), host: values.host ?? '127.0.0.1' };
  const standIn = await startStandIn({
    family,
    ...(values.mode ? { mode: values.mode } : {}),
    ...at,
    script,
    whenScriptEmpty: values.script ? 'error' : 'echo',
    scriptSpentHint: `all ${script.length} turn(s) of ${values.script} were played; restart \`toolseam dev-provider\` to play them again`,
    rejectTools: values.reject ?? [],
  }).catch((error: unknown) => {
    throw listenError(error, at.host, at.port);
  });
  const mode = values.mode ? ' (gemini mode)' : '';
  io.out(`${family} stand-in${mode} listening on ${standIn.url}`);
  io.out(
    `point your client's base URL at ${standIn.baseURL}; any API key works${family === 'bedrock' ? ', any region' : ''}`,
  );
  io.out(
    values.script
      ? `playing ${script.length} scripted turn(s) from ${values.script}`
      : 'no script: echoing each user message',
  );
  io.onListening?.(standIn);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await standIn.close();
  io.out(`stopped after ${standIn.requests.length} request(s)`);
  return 0;
}

function parse(argv: string[]) {
  return parseArgs({
    args: negativeValuesJoined(argv, ['port']),
    options: {
      family: { type: 'string' },
      mode: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      script: { type: 'string' },
      reject: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
}

/** `toolseam dev-provider`: runs a stand-in until Ctrl-C. */
export const devProviderCommand: Command = (argv) => {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return runDevProvider(argv, {
    out: (line) => process.stdout.write(`${line}\n`),
    signal: controller.signal,
  }).finally(() => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  });
};
