import { existsSync } from 'node:fs';
import { open, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { workerBuildOptions } from '../../electron/io/worker-bundle.js';
import { lz77CannotShrinkAny } from '../../electron/formats/hpi/chunks.js';
import { CHUNK_SIZE, chunkPayload } from '../../electron/formats/hpi/sqsh.js';
import { filesUnder } from '../../tests/helpers/files.js';

/** The codecs `modpak pack --method` compresses chunks with, and the floor decodes. */
export type FloorCodec = 'zlib' | 'lz77';

/**
 * Per file: its path below the target, then the packed and unpacked sizes of its chunks, in pairs; a third
 * element 1 marks a file kept as is (packed = unpacked), as the packers keep a file LZ77 cannot shrink.
 */
export type FloorPlan = [path: string, sizes: number[], stored?: 1][];

/**
 * The input of the floor program (decode-write.ts), made once under `dir`: every file of `folder` cut into
 * 64 KiB chunks compressed as `modpak pack --method <codec>` compresses them (zlib at level 6; LZ77 with the
 * packer's search, a file none of whose chunks shrinks kept as is), in `<input>.blob`, and their plan in
 * `<input>.json`. Returns `<input>`.
 */
export async function floorInput(folder: string, dir: string, codec: FloorCodec = 'zlib'): Promise<string> {
  const input = join(dir, codec === 'zlib' ? 'floor-input' : `floor-input-${codec}`);
  if (existsSync(`${input}.json`)) return input;
  const method = codec === 'zlib' ? 2 : 1;
  // The corpus folder's own marker (`.complete`) is not one of its files.
  const paths = (await filesUnder(folder)).filter((path) => !path.startsWith('.'));
  const plan: FloorPlan = [];
  const blob = await open(`${input}.blob`, 'w');
  try {
    for (const path of paths) {
      const bytes = await readFile(join(folder, path));
      const stored = lz77CannotShrinkAny(bytes, method);
      const sizes: number[] = [];
      for (let at = 0; at < Math.max(bytes.length, 1); at += CHUNK_SIZE) {
        const chunk = bytes.subarray(at, at + CHUNK_SIZE);
        // Written before the next chunk is compressed: an LZ77 payload is a view of the encoder's scratch.
        const packed = stored ? chunk : chunkPayload(chunk, method);
        await blob.write(packed);
        sizes.push(packed.length, chunk.length);
      }
      plan.push(stored ? [path, sizes, 1] : [path, sizes]);
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
  await build({ ...workerBuildOptions(fileURLToPath(new URL('./decode-write.ts', import.meta.url))), outfile: out });
  return out;
}
