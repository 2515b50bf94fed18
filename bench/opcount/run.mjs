// Prints the measured operation counts of the dynamics kernels beside the handbook's and Lee's printed counts
// (bench/opcount/measure.mjs says what is counted; docs/dynamics.md, "Operation counts, measured").
//   node bench/opcount/run.mjs [--build DIR] [--json]
// DIR: a build folder with core/libachain.a (default build/native). Needs valgrind and objdump.
import path from 'node:path';
import { measure, missing, root, table } from './measure.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--build');
const buildDir = at >= 0 ? path.resolve(args[at + 1]) : path.join(root, 'build/native');
const why = missing(buildDir);
if (why) {
  console.error(`opcount: ${why}`);
  process.exit(1);
}
const m = measure({ buildDir });
console.log(args.includes('--json') ? JSON.stringify(m, null, 2) : table(m));
