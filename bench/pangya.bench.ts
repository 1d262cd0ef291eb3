/**
 * Pangya PAK on the TA-scale corpus: the LZ77 codec in memory (types 1 and 3, every corpus file encoded
 * and decoded), then the archive: pack the corpus folder (XTEA us metadata) with each type and read every
 * entry back through the format-neutral reader.
 */
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { stat } from 'node:fs/promises';
import { corpusFiles, corpusFolder } from './corpus.js';
import { figure, mbps, scratch, time } from './util.js';
import { lz77Decode, type PangyaLzType } from '../electron/formats/pangya/lz77.js';
import { lz77Encode } from '../electron/formats/pangya/lz77-encode.js';
import { pangyaEngine } from '../electron/formats/pangya/index.js';
import { collectFolder } from '../electron/mods/pack.js';
import { openArchive } from '../electron/formats/index.js';
import { writeFileAtomically } from '../electron/io/byte-sink.js';

const NAMES: Record<PangyaLzType, string> = { 1: 'type 1', 3: 'type 3' };

async function codec(type: PangyaLzType): Promise<void> {
  let bytes = 0;
  let packed = 0;
  let packMs = 0;
  let unpackMs = 0;
  for (const file of corpusFiles()) {
    const t0 = performance.now();
    const stream = lz77Encode(file.bytes, type);
    const t1 = performance.now();
    const back = lz77Decode(stream, file.bytes.length, type);
    const t2 = performance.now();
    if (back.length !== file.bytes.length) throw new Error(`${file.path}: decoded ${back.length} of ${file.bytes.length} bytes`);
    packMs += t1 - t0;
    unpackMs += t2 - t1;
    bytes += file.bytes.length;
    packed += stream.length;
  }
  const name = `pangya lz77 ${NAMES[type]}`;
  if (type === 1) figure('pangya codec: corpus', `${(bytes / 1048576).toFixed(0)} MB`);
  figure(`${name}: compressed size`, `${((packed / bytes) * 100).toFixed(1)} %`);
  figure(`${name}: compress (in memory)`, mbps(bytes, packMs));
  figure(`${name}: decompress (in memory)`, mbps(bytes, unpackMs));
}

async function archive(method: 'lz77' | 'lz77x'): Promise<void> {
  const corpus = await corpusFolder();
  const files = await collectFolder(corpus.dir);
  // The folder walk also packs corpusFolder's small `.complete` marker: count what was really packed.
  const total = files.reduce((n, f) => n + f.size, 0);
  const target = join(await scratch('pangya'), `corpus-${method}.pak`);
  const packRun = await time(() => writeFileAtomically(target, (sink) => pangyaEngine.pack!(files, sink, { method })));
  const size = (await stat(target)).size;
  figure(`pangya pack --method ${method} (30k files, to disk)`, mbps(total, packRun.ms));
  figure(`pangya ${method} archive size`, `${((size / total) * 100).toFixed(1)} %`);
  const unpackRun = await time(async () => {
    const archive = await openArchive(target);
    let out = 0;
    try {
      for (const entry of archive.entries) if (!entry.dir) out += (await archive.read(entry)).length;
    } finally {
      await archive.close();
    }
    return out;
  });
  if (unpackRun.value !== total) throw new Error(`unpacked ${unpackRun.value} of ${total} bytes`);
  figure(`pangya ${method} unpack (open + read every entry)`, mbps(total, unpackRun.ms));
  const openRun = await time(async () => (await openArchive(target)).close());
  figure(`pangya ${method} open (trailer, table, region)`, `${openRun.ms.toFixed(0)} ms`);
}

export async function run(): Promise<void> {
  await codec(1);
  await codec(3);
  await archive('lz77');
  await archive('lz77x');
}
