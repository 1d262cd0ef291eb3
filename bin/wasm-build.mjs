/**
 * The codecs written in WebAssembly's text format (electron/**\/*.wat) assembled into TypeScript modules
 * beside them (NAME.wasm.ts, the module's bytes in base64), which are kept in the repository: the sources,
 * the CLI bundle, the worker bundles and the tests all import a plain module, and nothing has to be built
 * before `npm test` or after `npm install`. wabt (WebAssembly's own toolkit) is needed only here.
 *
 * `node bin/wasm-build.mjs` (npm run build:wasm) writes every module whose bytes changed; `--check` writes
 * nothing and exits 1 naming each module that is out of date with its .wat (a unit test runs it).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** Every .wat file under electron/. */
async function sources(dir = join(repo, 'electron')) {
  const found = [];
  for (const item of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, item.name);
    if (item.isDirectory()) found.push(...(await sources(full)));
    else if (item.name.endsWith('.wat')) found.push(full);
  }
  return found.sort();
}

/** The binary module a .wat file assembles to, validated; SIMD and bulk memory are used by the codecs. */
async function assemble(wabt, path) {
  const module = wabt.parseWat(basename(path), await readFile(path, 'utf8'), { simd: true, bulk_memory: true });
  try {
    module.validate();
    return Buffer.from(module.toBinary({ write_debug_names: false }).buffer);
  } finally {
    module.destroy();
  }
}

/** The TypeScript module that carries the bytes, laid out as Prettier would (the string on a line of its own). */
function generated(path, bytes) {
  return [
    `// Generated from ${basename(path)} by bin/wasm-build.mjs (npm run build:wasm): edit the .wat, not this file.`,
    '/** The WebAssembly module, base64. */',
    'export const WASM_BASE64 =',
    `  '${bytes.toString('base64')}';`,
    '',
  ].join('\n');
}

const check = process.argv.includes('--check');
const { default: loadWabt } = await import('wabt');
const wabt = await loadWabt();
const stale = [];
for (const path of await sources()) {
  const target = path.replace(/\.wat$/, '.wasm.ts');
  const want = generated(path, await assemble(wabt, path));
  const have = await readFile(target, 'utf8').catch(() => null);
  if (have === want) continue;
  stale.push(relative(repo, target));
  if (!check) await writeFile(target, want);
}
if (check && stale.length > 0) {
  console.error(`wasm-build: out of date with its .wat (run npm run build:wasm): ${stale.join(', ')}`);
  process.exit(1);
}
if (!check) for (const name of stale) console.log(`wasm-build: wrote ${name}`);
