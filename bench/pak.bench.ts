/**
 * Daikatana PAK on the TA-scale corpus: the codec in memory (every corpus file compressed and decoded),
 * then the archive: pack the corpus folder with compressible names (.pcx stays, .3do becomes .bsp, so the
 * writer compresses them; text and .wav are stored as the engine requires) and read every entry back.
 */
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { mkdir, stat } from 'node:fs/promises';
import { corpusFiles, corpusFolder, MEDIUM_CORPUS } from './corpus.js';
import { cpTreeRun, inFreshFoldersInTurns, target } from './targets.js';
import { writeArchive } from '../electron/mods/pack.js';
import { figure, mbps, scratch, time, timed } from './util.js';
import { dkDecompress } from '../electron/formats/daikatana/codec.js';
import { dkCompress } from '../electron/formats/daikatana/encode.js';
import { daikatanaEngine } from '../electron/formats/daikatana/index.js';
import { collectFolder } from '../electron/mods/pack.js';
import { openArchive } from '../electron/formats/index.js';
import { writeFileAtomically } from '../electron/io/byte-sink.js';
import { existsSync, readFileSync } from 'node:fs';
import { samplesDir } from '../tests/helpers/sample-installs.js';

/**
 * The PACK family written from the 88 MB corpus, beside `cp -r` of the same folder: pakka packs it in
 * 0.18 s where cp -r takes 0.22 s (0.8×), so 2× pakka is 1.6× cp -r. No Daikatana packer with a public
 * source builds here (DaiPak is a Lazarus GUI), so Daikatana is held to the same 1.6×.
 *
 * Pangya's C tool, SuperSS lzpak (Tools/lzpak.cpp in Acrisio-Filho/SuperSS-Dev, g++ -O2, `lzpak DIR 3 2 5`:
 * XTEA table, LZ77 type 1, level 5), packed this corpus in 436.5 s of CPU on one thread (its match search
 * scans the whole 4 KiB window at every position); it is too slow to run in each bench, so that figure
 * stands in for it, and the target is 2× it.
 */
const LZPAK_PACK_MS = 436_500;
async function packFamily(): Promise<void> {
  const medium = await corpusFolder(MEDIUM_CORPUS.count, MEDIUM_CORPUS.seed, MEDIUM_CORPUS.scale);
  const dir = await scratch('pak');
  const files = (await collectFolder(medium.dir)).filter((f) => f.path !== '.complete');
  const formats = ['pak', 'sin', 'daikatana', 'pangya'] as const;
  // cp -r and the packs take turns, medians of 3: one cp -r alone read 83 ms in one run and 722 ms in
  // another (fresh memory on this VM), which made every pack pass or fail with it.
  const [cp, ...packs] = await inFreshFoldersInTurns(
    dir,
    3,
    [
      cpTreeRun(medium.dir),
      ...formats.map((format) => async (out: string) => {
        await mkdir(out, { recursive: true });
        const r = await timed(() =>
          writeArchive({ files, target: join(out, `medium.${format}.pak`), format, formatHint: '', options: {} }),
        );
        return { ms: r.ms, cpuMs: r.cpu, maxRssKb: 0 };
      }),
    ],
    { warmUp: cpTreeRun(medium.dir) },
  );
  for (const [i, format] of formats.entries()) {
    const r = packs[i]!;
    const label = `${format} pack, 88 MB, median of 3 (CPU ${(r.cpuMs / 1000).toFixed(2)} s)`;
    // The lzpak target is met by far; its multiple of cp -r is what to watch.
    if (format === 'pangya') {
      figure('pangya pack against cp -r', `${(r.ms / cp!.ms).toFixed(2)}×`);
      target(label, r.ms, 'lzpak, measured once', LZPAK_PACK_MS, 2);
    } else target(label, r.ms, 'cp -r', cp!.ms, 1.6, [r.spread, cp!.spread]);
  }
}

/**
 * The codec on the real files a Daikatana pak compresses (the samples' Quake 2 textures and palette PCX,
 * Half-Life and Quake BSPs, a Quake WAD): the corpus below is synthetic, and these are what a user's
 * extract, verify and pack spend their time on. Best of 20 rounds of every file.
 */
function realSamples(): void {
  const files = [
    'quake-assets/quake2/textures/b_pv_v1a1.wal',
    'quake-assets/quake2/textures/lavatest.wal',
    'quake-assets/quake2/pics/colormap.pcx',
    'quake-assets/halflife/hl.bsp',
    'quake-assets/quake/cube.bsp',
    'quake-assets/quake/cr8_czg.wad',
  ].map((path) => join(samplesDir, path));
  if (!files.every((f) => existsSync(f))) {
    console.log(`no samples at ${samplesDir}: the real-file codec figures are skipped`);
    return;
  }
  const inputs = files.map((f) => new Uint8Array(readFileSync(f)));
  const packedInputs = inputs.map((b) => dkCompress(b));
  const bytes = inputs.reduce((n, b) => n + b.length, 0);
  const best = (fn: () => void) => {
    let ms = Infinity;
    for (let round = 0; round < 20; round++) {
      const t0 = performance.now();
      fn();
      ms = Math.min(ms, performance.now() - t0);
    }
    return ms;
  };
  const packMs = best(() => inputs.forEach((b) => dkCompress(b)));
  const unpackMs = best(() => packedInputs.forEach((p, i) => dkDecompress(p, inputs[i]!.length)));
  const size = packedInputs.reduce((n, p) => n + p.length, 0);
  figure('daikatana codec, real samples: size', `${(bytes / 1024).toFixed(0)} KB → ${((size / bytes) * 100).toFixed(1)} %`);
  figure('daikatana codec, real samples: compress', mbps(bytes, packMs));
  figure('daikatana codec, real samples: decompress', mbps(bytes, unpackMs));
}

export async function run(): Promise<void> {
  await packFamily();
  realSamples();
  let bytes = 0;
  let packed = 0;
  let packMs = 0;
  let unpackMs = 0;
  // CPU time too: on a shared machine wall-clock figures drop with the load, CPU time much less.
  let packCpu = 0;
  let unpackCpu = 0;
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  for (const file of corpusFiles()) {
    const c0 = cpu();
    const t0 = performance.now();
    const stream = dkCompress(file.bytes);
    const t1 = performance.now();
    const c1 = cpu();
    const back = dkDecompress(stream, file.bytes.length);
    const t2 = performance.now();
    unpackCpu += cpu() - c1;
    packCpu += c1 - c0;
    if (back.length !== file.bytes.length) throw new Error(`${file.path}: decoded ${back.length} of ${file.bytes.length} bytes`);
    packMs += t1 - t0;
    unpackMs += t2 - t1;
    bytes += file.bytes.length;
    packed += stream.length;
  }
  figure('daikatana codec: corpus', `${(bytes / 1048576).toFixed(0)} MB`);
  figure('daikatana codec: compressed size', `${((packed / bytes) * 100).toFixed(1)} %`);
  figure('daikatana codec: compress', mbps(bytes, packMs));
  figure('daikatana codec: decompress', mbps(bytes, unpackMs));
  figure('daikatana codec: compress (CPU time)', mbps(bytes, packCpu));
  figure('daikatana codec: decompress (CPU time)', mbps(bytes, unpackCpu));

  const corpus = await corpusFolder();
  // The corpus folder's .complete marker is not part of the corpus.
  const files = (await collectFolder(corpus.dir))
    .filter((f) => f.path !== '.complete')
    .map((f) => ({
      path: f.path.replace(/\.3do$/, '.bsp'),
      size: f.size,
      read: () => f.read(),
      readSync: (s?: Uint8Array) => f.readSync(s),
    }));
  const target = join(await scratch('pak'), 'corpus-daikatana.pak');
  const packRun = await time(() => writeFileAtomically(target, (sink) => daikatanaEngine.pack!(files, sink, {})));
  const size = (await stat(target)).size;
  figure('daikatana pack (30k files, to disk)', mbps(corpus.bytes, packRun.ms));
  figure('daikatana archive size', `${((size / corpus.bytes) * 100).toFixed(1)} %`);
  const unpackRun = await time(async () => {
    const archive = await openArchive(target);
    let out = 0;
    try {
      for (const entry of archive.entries) out += (await archive.read(entry)).length;
    } finally {
      await archive.close();
    }
    return out;
  });
  if (unpackRun.value !== corpus.bytes) throw new Error(`unpacked ${unpackRun.value} of ${corpus.bytes} bytes`);
  figure('daikatana unpack (open + read every entry)', mbps(corpus.bytes, unpackRun.ms));
}
