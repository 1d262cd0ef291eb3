import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listArchive } from '../../../electron/services/archive-service.js';
import { verifyArchive } from '../../../electron/services/archive-verify.js';
import { packFile, packToBytes, sampleBytes } from '../formats/hpi/fixtures.js';

let work: string;
const files = Array.from({ length: 150 }, (_, i) =>
  packFile(`dir${i % 4}/file${i}.bin`, sampleBytes(i, 1500 + i * 131, i % 3 === 0 ? 'runs' : 'text')),
);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'hpi-verify-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** The offset of each file's data in directory order: v1 data follows the directory, file after file. */
function chunkStarts(bytes: Uint8Array): number[] {
  // The writer lays the data out in the order given; each file here is one chunk behind its 4-byte table.
  const starts: number[] = [];
  let at = new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true);
  for (let i = 0; i < bytes.length - 4; i++) {
    if (i >= at && bytes[i] === 0x53 && bytes[i + 1] === 0x51 && bytes[i + 2] === 0x53 && bytes[i + 3] === 0x48) {
      starts.push(i);
      at = i + 4;
    }
  }
  return starts;
}

describe('verify on worker threads', () => {
  it('finds what one thread finds, errors and warnings in stored order', async () => {
    const bytes = await packToBytes(files, { key: 0 });
    const starts = chunkStarts(bytes);
    expect(starts.length).toBeGreaterThanOrEqual(150);
    // Three entries far apart: a broken magic (an error), a changed checksum (a warning), a broken magic.
    for (const n of [7, 140]) bytes[starts[n]!] = 0x00;
    bytes[starts[70]! + 15] = bytes[starts[70]! + 15]! ^ 0x01;
    const archive = join(work, 'bad.ufo');
    await writeFile(archive, bytes);
    const progress: number[] = [];
    const parallel = await verifyArchive(archive, { workers: 2, onProgress: (d) => progress.push(d) });
    const serial = await verifyArchive(archive, { workers: 0 });
    expect(parallel).toEqual(serial);
    expect(parallel.ok).toBe(false);
    expect(parallel.files).toBe(148);
    expect(parallel.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/no SQSH chunk at/),
      expect.stringMatching(/no SQSH chunk at/),
    ]);
    const stored = (await listArchive(archive)).map((e) => e.path);
    const [first, second] = parallel.errors.map((e) => stored.indexOf(e.path));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(second).toBeGreaterThan(first!);
    expect(parallel.warnings).toEqual([{ path: expect.any(String), message: expect.stringMatching(/checksum/) }]);
    expect(progress).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
  });
});
