/**
 * Runs many CLI commands in this one process (after faults.mjs is preloaded), each with its own fault:
 * a child per run spends seconds starting on a loaded machine, a run here a few milliseconds. The plan
 * is a JSON file of [{dir, fault, args}]; the results ([{code, stderr, counts}]) go to the file named second.
 * The CLI's entry function is the one bin/modpak runs (from its bundle), with stdout and stderr captured.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { freshCliBundle } from '../../../../bin/cli-bundle.mjs';

const [planFile, resultFile] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
const faults = globalThis[Symbol.for('modpak.faults')];
if (!faults) throw new Error('drive.mjs needs faults.mjs preloaded (node --import faults.mjs drive.mjs …)');

// Whatever escapes the command (as bin/modpak does) is a last line, here kept for the run it ended.
let escaped;
process.on('unhandledRejection', (err) => (escaped = err));

const bundle = await freshCliBundle();
const { main } = bundle ? await import(bundle.href) : await import('../../../../electron/cli/main.ts');
const results = [];
for (const run of plan) {
  const err = new PassThrough();
  let stderr = '';
  err.on('data', (c) => (stderr += c.toString()));
  const out = new PassThrough();
  out.resume();
  escaped = null;
  faults.arm(run.dir, run.fault);
  let code;
  try {
    code = await main(run.args, { stdout: out, stderr: err });
  } catch (e) {
    code = 1;
    stderr += `escaped: ${e instanceof Error ? e.stack : String(e)}\n`;
  }
  const counts = { ...faults.counts() };
  faults.arm(null, null);
  // Let anything the run left behind settle (and be seen) before the next one.
  await new Promise((r) => setTimeout(r, 5));
  if (escaped) stderr += `escaped: ${escaped instanceof Error ? escaped.stack : String(escaped)}\n`;
  results.push({ code, stderr, counts });
}
writeFileSync(resultFile, JSON.stringify(results));
