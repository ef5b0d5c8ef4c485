import { main } from './main.js';
import { keepRunningOnStrayRejections } from './stray-rejections.js';

keepRunningOnStrayRejections((line) => process.stderr.write(line));
process.exitCode = await main(process.argv.slice(2));
