import { existsSync } from 'node:fs';
import { open, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { deflateZlib } from '../../electron/io/zlib.js';
import { workerBuildOptions } from '../../electron/io/worker-bundle.js';
import { CHUNK_SIZE } from '../../electron/formats/hpi/sqsh.js';
import { filesUnder } from '../../tests/helpers/files.js';

/** Per file: its path below the target, then packed and unpacked sizes of its chunks, in pairs. */
export type FloorPlan = [path: string, sizes: number[]][];

/**
 * The input of the floor program (inflate-write.ts), made once under `dir`: every file of `folder` cut into
 * 64 KiB chunks and deflated at level 6, as `modpak pack --method zlib` deflates them, in `<input>.blob`,
 * and their plan in `<input>.json`. Returns `<input>`.
 */
export async function floorInput(folder: string, dir: string): Promise<string> {
  const input = join(dir, 'floor-input');
  if (existsSync(`${input}.json`)) return input;
  // The corpus folder's own marker (`.complete`) is not one of its files.
  const paths = (await filesUnder(folder)).filter((path) => !path.startsWith('.'));
  const plan: FloorPlan = [];
  const blob = await open(`${input}.blob`, 'w');
  try {
    for (const path of paths) {
      const bytes = await readFile(join(folder, path));
      const sizes: number[] = [];
      for (let at = 0; at < Math.max(bytes.length, 1); at += CHUNK_SIZE) {
        const packed = deflateZlib(bytes.subarray(at, at + CHUNK_SIZE));
        await blob.write(packed);
        sizes.push(packed.length, Math.min(CHUNK_SIZE, bytes.length - at));
      }
      plan.push([path, sizes]);
    }
  } finally {
    await blob.close();
  }
  await writeFile(`${input}.json.tmp`, JSON.stringify(plan));
  await rename(`${input}.json.tmp`, `${input}.json`);
  return input;
}

/** The floor program as one ES module under `dir`, bundled as the workers are. */
export async function floorProgram(dir: string): Promise<string> {
  const out = join(dir, 'floor.mjs');
  await build({ ...workerBuildOptions(fileURLToPath(new URL('./inflate-write.ts', import.meta.url))), outfile: out });
  return out;
}
