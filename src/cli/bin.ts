import { survivingClosedOutput } from './closed-output.js';
import { main } from './main.js';
import { keepRunningOnStrayRejections } from './stray-rejections.js';

keepRunningOnStrayRejections((line) => process.stderr.write(line));
survivingClosedOutput();
process.exitCode = await main(process.argv.slice(2));
