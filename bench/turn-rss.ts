import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ASKED, callPath } from './turn-loopback.js';
import { CALL_ARGUMENTS, type TurnSide, targetOf } from './turn-tools.js';

/**
 * A process of its own for one side: `--mode bare|toolseam --n N --turns T --url LOOPBACK` runs T turns,
 * each in a new conversation, then prints {"rssMB": …, "heapMB": …} as one line. Only the side measured
 * is loaded, so neither side's modules weigh on the other's figure.
 */
const { values } = parseArgs({
  options: {
    mode: { type: 'string' },
    n: { type: 'string' },
    turns: { type: 'string' },
    url: { type: 'string' },
  },
});
const n = Number(values.n);
const target = targetOf(n);
const baseURL = `${values.url}${callPath(ASKED, CALL_ARGUMENTS)}`;
const dir = mkdtempSync(join(tmpdir(), 'toolseam-bench-turn-rss-'));
let side: TurnSide;
if (values.mode === 'bare') side = (await import('./turn-bare.js')).bareSide(baseURL, n);
else if (values.mode === 'toolseam')
  side = await (await import('./turn-toolseam.js')).toolseamSide(baseURL, n, dir);
else throw new Error(`--mode is bare or toolseam, not ${values.mode}`);
for (let i = 0; i < Number(values.turns); i += 1) await side.turn(target.ask(i));
const { rss, heapUsed } = process.memoryUsage();
await side.close();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ rssMB: rss / 2 ** 20, heapMB: heapUsed / 2 ** 20 })}\n`);
