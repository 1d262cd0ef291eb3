/**
 * The floor under `modpak extract` of a zlib archive (issue 15): what Node itself costs to inflate the
 * bench corpus's 64 KiB zlib chunks and write its 30,000 files, and nothing else modpak must do (no
 * directory, no cipher, no checksums, no path checks, no messages between threads). Both threads take
 * batches of files from one shared counter, so neither waits on the other. read.bench.ts bundles this file
 * with esbuild and runs it as a plain `node` process beside `modpak extract`, in the same turns.
 *
 * Usage: node floor.mjs INPUT TARGET THREADS, where INPUT.blob holds the chunks one after another and
 * INPUT.json lists, per file, its path and each chunk's packed and unpacked size (see input.ts).
 */
import { closeSync, mkdirSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { inflateZlib } from '../../electron/io/zlib.js';
import type { FloorPlan } from './input.js';

const BATCH = 64;

function extractShare(input: string, target: string, next: Int32Array): void {
  const plan = JSON.parse(readFileSync(`${input}.json`, 'utf8')) as FloorPlan;
  const starts = new Float64Array(plan.length + 1);
  for (let i = 0; i < plan.length; i++) {
    let packed = 0;
    for (let k = 0; k < plan[i]![1].length; k += 2) packed += plan[i]![1][k]!;
    starts[i + 1] = starts[i]! + packed;
  }
  const blob = openSync(`${input}.blob`, 'r');
  const block = new Uint8Array(4 << 20);
  const scratch = new Uint8Array(65536 + 1024);
  let blockAt = -1;
  let blockEnd = -1;
  const made = new Set<string>();
  for (let from = Atomics.add(next, 0, BATCH); from < plan.length; from = Atomics.add(next, 0, BATCH)) {
    for (let i = from; i < Math.min(plan.length, from + BATCH); i++) {
      const [path, sizes] = plan[i]!;
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
        writeSync(out, inflateZlib(block.subarray(at - blockAt, at - blockAt + packed), sizes[k + 1]!, scratch));
        at += packed;
      }
      closeSync(out);
    }
  }
  closeSync(blob);
}

if (isMainThread) {
  const [input, target, threads] = process.argv.slice(2) as [string, string, string];
  mkdirSync(target, { recursive: true });
  const next = new Int32Array(new SharedArrayBuffer(4));
  const workers = Array.from({ length: Number(threads) - 1 }, () => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { input, target, next } });
    return new Promise((resolve, reject) => worker.on('exit', resolve).on('error', reject));
  });
  extractShare(input, target, next);
  await Promise.all(workers);
} else {
  const { input, target, next } = workerData as { input: string; target: string; next: Int32Array };
  extractShare(input, target, next);
}
