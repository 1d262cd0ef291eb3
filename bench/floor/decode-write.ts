/**
 * The floor under `modpak extract` of a zlib or LZ77 archive (issue 15): what Node itself costs to decode
 * the bench corpus's 64 KiB chunks and write its 30,000 files, and nothing else modpak must do (no
 * directory, no cipher, no checksums, no path checks, no messages between threads). It decodes through
 * modpak's own codecs: Node's inflate (electron/io/zlib.ts) and the WebAssembly LZ77 decoder. Both threads
 * take batches of files from one shared counter, so neither waits on the other. read.bench.ts bundles
 * this file with esbuild and runs it as a plain `node` process beside `modpak extract`, in the same turns.
 *
 * Usage: node floor.mjs INPUT TARGET THREADS CODEC, where INPUT.blob holds the chunks one after another
 * and INPUT.json lists, per file, its path and each chunk's packed and unpacked size (see input.ts); CODEC
 * is zlib (the default) or lz77.
 */
import { closeSync, mkdirSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { inflateZlib } from '../../electron/io/zlib.js';
import { decodeLz77 } from '../../electron/formats/hpi/lz77.js';
import type { FloorCodec, FloorPlan } from './input.js';

const BATCH = 64;

interface Share {
  input: string;
  target: string;
  codec: FloorCodec;
  next: Int32Array;
}

function extractShare({ input, target, codec, next }: Share): void {
  const plan = JSON.parse(readFileSync(`${input}.json`, 'utf8')) as FloorPlan;
  const starts = new Float64Array(plan.length + 1);
  for (let i = 0; i < plan.length; i++) {
    let packed = 0;
    for (let k = 0; k < plan[i]![1].length; k += 2) packed += plan[i]![1][k]!;
    starts[i + 1] = starts[i]! + packed;
  }
  const decode = codec === 'lz77' ? decodeLz77 : inflateZlib;
  const blob = openSync(`${input}.blob`, 'r');
  const block = new Uint8Array(4 << 20);
  const scratch = new Uint8Array(65536 + 1024);
  let blockAt = -1;
  let blockEnd = -1;
  const made = new Set<string>();
  for (let from = Atomics.add(next, 0, BATCH); from < plan.length; from = Atomics.add(next, 0, BATCH)) {
    for (let i = from; i < Math.min(plan.length, from + BATCH); i++) {
      const [path, sizes, stored] = plan[i]!;
      const folder = path.slice(0, path.lastIndexOf('/'));
      if (folder && !made.has(folder)) {
        mkdirSync(`${target}/${folder}`, { recursive: true });
        made.add(folder);
      }
      const out = openSync(`${target}/${path}`, 'w');
      let at = starts[i]!;
      for (let k = 0; k < sizes.length; k += 2) {
        const packed = sizes[k]!;
        if (at < blockAt || at + packed > blockEnd) {
          blockEnd = at + readSync(blob, block, 0, block.length, at);
          blockAt = at;
        }
        const chunk = block.subarray(at - blockAt, at - blockAt + packed);
        writeSync(out, stored ? chunk : decode(chunk, sizes[k + 1]!, scratch));
        at += packed;
      }
      closeSync(out);
    }
  }
  closeSync(blob);
}

if (isMainThread) {
  const [input, target, threads, codec = 'zlib'] = process.argv.slice(2) as [string, string, string, FloorCodec?];
  if (codec !== 'zlib' && codec !== 'lz77') throw new Error(`unknown codec ${codec}`);
  mkdirSync(target, { recursive: true });
  const share: Share = { input, target, codec, next: new Int32Array(new SharedArrayBuffer(4)) };
  const workers = Array.from({ length: Number(threads) - 1 }, () => {
    const worker = new Worker(new URL(import.meta.url), { workerData: share });
    return new Promise((resolve, reject) => worker.on('exit', resolve).on('error', reject));
  });
  extractShare(share);
  await Promise.all(workers);
} else {
  extractShare(workerData as Share);
}
