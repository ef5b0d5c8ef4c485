// A second process that takes a SQLite file's write lock, says "holding", keeps it for the given
// milliseconds (blocking, as a stuck writer would), then lets go and says "released".
import Database from 'better-sqlite3';

const [path, ms] = process.argv.slice(2) as [string, string];
const db = new Database(path);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('holding\n');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(ms));
db.exec('COMMIT');
db.close();
process.stdout.write('released\n');
