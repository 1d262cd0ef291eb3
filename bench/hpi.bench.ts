/**
 * HPI at TA scale: the 30,000-file, ~300 MB corpus packed as HPI v1 (LZ77 and zlib), then opened, listed,
 * extracted (in a child process, so its peak RSS is its own) and its LZ77 chunks decoded on one core.
 * Run with `npm run bench -- hpi`. Figures on a shared machine are pessimistic.
 */
import { spawn } from 'node:child_process';
import { readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { corpusFolder, corpusFiles, MEDIUM_CORPUS } from './corpus.js';
import { cpTreeRun, inFreshFoldersInTurns, limit, references, target } from './targets.js';
import { figure, mbps, scratch, time } from './util.js';
import { peakRssKb } from './peak-rss.cjs';
import { packFolder } from '../electron/mods/pack.js';
import { listArchive } from '../electron/services/archive-service.js';
import { extractArchive } from '../electron/services/archive-extract.js';
import { FileSource } from '../electron/io/byte-source.js';
import { hpiEngine } from '../electron/formats/hpi/index.js';
import { deriveKey, positionCipher, unscramble } from '../electron/formats/hpi/cipher.js';
import { decodeLz77, encodeLz77Greedy } from '../electron/formats/hpi/lz77.js';
import { readChunkHeader, SQSH_HEADER_SIZE, CHUNK_SIZE } from '../electron/formats/hpi/sqsh.js';
import type { V1Entry } from '../electron/formats/hpi/v1-directory.js';
import { FLAGS_AFTER_START, modpakNodeFlags } from '../bin/node-flags.cjs';

const MB = 1048576;
const self = fileURLToPath(import.meta.url);
const benchDir = dirname(self);

/** Child mode: extract an archive, print elapsed and CPU time, bytes and this process's peak RSS as JSON. */
async function child(archive: string, target: string, workers: string): Promise<void> {
  // As bin/modpak does once started: the shebang's heap flags, left in force, slow every worker's start.
  setFlagsFromString(FLAGS_AFTER_START);
  const started = performance.now();
  const result = await extractArchive(archive, target, workers === 'auto' ? {} : { workers: Number(workers) });
  const ms = performance.now() - started;
  const usage = process.resourceUsage();
  const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
  process.stdout.write(
    JSON.stringify({
      ms,
      cpuMs,
      userMs: usage.userCPUTime / 1000,
      bytes: result.bytes,
      files: result.files,
      threads: result.threads,
      maxRssKb: peakRssKb(),
    }),
  );
}

interface ChildResult {
  ms: number;
  cpuMs: number;
  userMs: number;
  bytes: number;
  files: number;
  threads: number;
  maxRssKb: number;
}

function runChild(archive: string, target: string, workers = 'auto', nodeFlags: string[] = []): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', self, '--extract-child', archive, target, workers], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`extract child exited with ${code}`))));
  });
}

/** `bin/modpak ARGS` executed as users run it (its shebang), peak RSS and time from bench/report-usage.cjs. */
async function runCli(args: string[], scratchDir: string): Promise<{ ms: number; cpuMs: number; maxRssKb: number }> {
  const usageFile = join(scratchDir, 'usage.json');
  const code = await new Promise<number | null>((resolve, reject) => {
    const p = spawn(join(benchDir, '..', 'bin', 'modpak'), args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, MODPAK_USAGE_FILE: usageFile, NODE_OPTIONS: `--require=${join(benchDir, 'report-usage.cjs')}` },
    });
    p.on('error', reject);
    p.on('close', resolve);
  });
  if (code !== 0) throw new Error(`modpak ${args[0]} exited with ${code}`);
  return JSON.parse(await readFile(usageFile, 'utf8')) as { ms: number; cpuMs: number; maxRssKb: number };
}

/** Every LZ77 chunk payload of the archive (deciphered, unscrambled), up to `limit` compressed bytes. */
async function lz77Chunks(
  path: string,
  limit: number,
): Promise<{ payloads: Uint8Array[]; sizes: number[]; packed: number; unpacked: number }> {
  const source = await FileSource.open(path);
  const archive = await hpiEngine.open(source);
  const info = archive.info();
  if (info.format !== 'hpi' || info.version !== 1) throw new Error(`${path} is not an HPI v1 archive`);
  const key = deriveKey(info.key);
  const payloads: Uint8Array[] = [];
  const sizes: number[] = [];
  let packed = 0;
  let unpacked = 0;
  try {
    for (const e of archive.entries as V1Entry[]) {
      // Stored files (those LZ77 would not shrink) have no chunks.
      if (e.dir || e.size === 0 || e.flag === 0 || packed >= limit) continue;
      const count = Math.ceil(e.size / CHUNK_SIZE);
      const table = positionCipher(await source.read(e.dataOffset, count * 4), e.dataOffset, key);
      let at = e.dataOffset + count * 4;
      for (let i = 0; i < count; i++) {
        const length = new DataView(table.buffer).getUint32(i * 4, true);
        const chunk = positionCipher(await source.read(at, length), at, key);
        const h = readChunkHeader(chunk, 0, at);
        const payload = chunk.subarray(SQSH_HEADER_SIZE);
        payloads.push(h.scrambled ? unscramble(payload) : payload);
        sizes.push(h.size);
        packed += payload.length;
        unpacked += h.size;
        at += length;
      }
    }
  } finally {
    await archive.close();
  }
  return { payloads, sizes, packed, unpacked };
}

/** Sum of LZ77 payload bytes over every chunk of the archive (what the encoder produced). */
async function lz77PayloadTotal(path: string): Promise<number> {
  const { packed } = await lz77Chunks(path, Infinity);
  return packed;
}

export async function run(): Promise<void> {
  const corpus = await corpusFolder();
  figure('corpus', `${corpus.files} files, ${(corpus.bytes / MB).toFixed(0)} MB`);
  const dir = await scratch('hpi');
  const lz = join(dir, 'corpus-lz77.hpi');
  const zl = join(dir, 'corpus-zlib.hpi');

  // CPU time as well as wall time: on a shared machine the wall clock also counts other people's work.
  const cpu = async <T>(fn: () => Promise<T> | T) => {
    const before = process.cpuUsage();
    const r = await time(fn);
    const used = process.cpuUsage(before);
    return { ...r, cpuMs: (used.user + used.system) / 1000 };
  };
  const packLz = await cpu(() => packFolder({ dir: corpus.dir, target: lz }));
  figure('pack LZ77 (v1, key 0x7D), wall', mbps(corpus.bytes, packLz.ms), '≥ 20 MB/s');
  figure('  per CPU second', mbps(corpus.bytes, packLz.cpuMs));
  figure('  archive size', `${(packLz.value.size / MB).toFixed(1)} MB`);
  const packZl = await cpu(() => packFolder({ dir: corpus.dir, target: zl, method: 'zlib' }));
  figure('pack zlib (native), wall', mbps(corpus.bytes, packZl.ms));
  figure('  per CPU second', mbps(corpus.bytes, packZl.cpuMs));
  figure('  archive size', `${(packZl.value.size / MB).toFixed(1)} MB`);

  // Our encoder's payload against a greedy longest-match encoder over the full 4095-byte window.
  const ours = await lz77PayloadTotal(lz);
  let greedy = 0;
  let greedyIn = 0;
  const greedyTime = await time(() => {
    for (const f of corpusFiles()) {
      for (let o = 0; o < f.bytes.length; o += CHUNK_SIZE) {
        const c = f.bytes.subarray(o, o + CHUNK_SIZE);
        greedy += encodeLz77Greedy(c).length;
        greedyIn += c.length;
      }
    }
  });
  figure('LZ77 payload, ours (optimal parse)', `${(ours / MB).toFixed(2)} MB`);
  figure('LZ77 payload, greedy full window', `${(greedy / MB).toFixed(2)} MB`, 'ours ≤ greedy');
  figure('  greedy encoder speed (reference)', mbps(greedyIn, greedyTime.ms));

  const opens: number[] = [];
  const lists: number[] = [];
  for (let i = 0; i < 5; i++) {
    const o = await time(async () => {
      const a = await hpiEngine.open(await FileSource.open(lz));
      await a.close();
    });
    opens.push(o.ms);
    lists.push((await time(() => listArchive(lz))).ms);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  figure('open directory (median of 5)', `${median(opens).toFixed(1)} ms`);
  figure('open + list, 30,000 files (median of 5)', `${median(lists).toFixed(1)} ms`, '< 150 ms');

  const chunks = await lz77Chunks(lz, 64 * MB);
  for (let i = 0; i < 50; i++) decodeLz77(chunks.payloads[i]!, chunks.sizes[i]!); // warm up
  const decode = await cpu(() => {
    for (let i = 0; i < chunks.payloads.length; i++) decodeLz77(chunks.payloads[i]!, chunks.sizes[i]!);
  });
  figure('LZ77 decode, one core, wall', mbps(chunks.unpacked, decode.ms), '≥ 150 MB/s');
  figure('  per CPU second', mbps(chunks.unpacked, decode.cpuMs));

  // With the node flags bin/modpak sets (a small young generation releases garbage file buffers
  // sooner); the last run shows the peak without them.
  const flags = modpakNodeFlags();
  const runs = [
    ['LZ77', lz, 'auto', flags],
    ['zlib', zl, 'auto', flags],
    ['LZ77', lz, '0', flags],
    ['LZ77', lz, 'auto', []],
  ] as const;
  // Each into a folder of its own, all removed at the end, after an untimed copy: a tree made just after
  // one was removed pays ext4's scan past the freed inodes (see inFreshFoldersInTurns), 15-20 CPU-seconds
  // in place of about one.
  const warmUp = { warmUp: cpTreeRun(corpus.dir) };
  const childRuns = await inFreshFoldersInTurns(
    dir,
    1,
    runs.map(
      ([, archive, workers, nodeFlags]) =>
        (out: string) =>
          runChild(archive, out, workers, [...nodeFlags]),
    ),
    warmUp,
  );
  // The same work as a user runs it: `modpak extract` (the CLI's bundle, no TypeScript loader).
  const cliRuns = await inFreshFoldersInTurns(
    dir,
    1,
    [lz, zl].map((archive) => (out: string) => runCli(['extract', archive, '-t', out], dir)),
    warmUp,
  );
  for (const [i, [label, , , nodeFlags]] of runs.entries()) {
    const r = childRuns[i]!;
    figure(
      `extract all (${label}), this thread + ${r.threads} worker(s)${nodeFlags.length ? '' : ', without the CLI flags'}`,
      mbps(r.bytes, r.ms),
    );
    figure(`  CPU time (user+sys), user`, `${(r.cpuMs / 1000).toFixed(1)} s, ${(r.userMs / 1000).toFixed(1)} s`);
    figure(`  peak RSS of the extracting process`, `${(r.maxRssKb / 1024).toFixed(0)} MB`, '< 200 MB');
  }
  for (const [i, label] of (['LZ77', 'zlib'] as const).entries()) {
    const r = cliRuns[i]!;
    figure(`modpak extract (${label}), the CLI as shipped`, mbps(corpus.bytes, r.ms));
    figure(`  peak RSS of the modpak process`, `${(r.maxRssKb / 1024).toFixed(0)} MB`, '< 200 MB');
  }
  await packTargets(corpus, dir);
  figure('archive sizes on disk', `${((await stat(lz)).size / MB).toFixed(1)} / ${((await stat(zl)).size / MB).toFixed(1)} MB`);
}

/** HPIPack's LZ77 archive of the 303 MB corpus, and the share of today's size it reaches on the 88 MB one (29.71 / 29.81 MB). */
const HPIPACK_LZ77_MB = 174.61;
const HPIPACK_SHARE_MEDIUM = 29.71 / 29.81;
/** What modpak packed the 88 MB corpus to before the optimal parse (main at 4f18a22): HPIPack's share of it is the target. */
const MEDIUM_LZ77_BEFORE = 49_692_017;

/** Issue 15's pack targets: `modpak pack` as users run it, beside gzip -6 and cp -r of the same folder in the same run. */
async function packTargets(corpus: { dir: string; bytes: number }, dir: string): Promise<void> {
  const gzip6 = references.gzip6(corpus.dir, join(dir, 'corpus.tar.gz'));
  await rm(join(dir, 'corpus.tar.gz'), { force: true });
  // --method none is held to cp -r, so the two take turns (each run's output a path of its own).
  const [cp, none] = await inFreshFoldersInTurns(
    dir,
    3,
    [cpTreeRun(corpus.dir), (out) => runCli(['pack', corpus.dir, '--target', out, '--method', 'none', '--format', 'hpi'], dir)],
    { warmUp: cpTreeRun(corpus.dir) },
  );
  for (const method of ['lz77', 'zlib', 'none'] as const) {
    const out = method === 'none' ? null : join(dir, `cli-pack-${method}.hpi`);
    const r = out === null ? none! : await runCli(['pack', corpus.dir, '--target', out, '--method', method], dir);
    figure(`modpak pack (${method}), the CLI as shipped`, mbps(corpus.bytes, r.ms));
    figure(`  CPU time, and per wall second`, `${(r.cpuMs / 1000).toFixed(1)} s, ${(r.cpuMs / r.ms).toFixed(2)}`);
    if (method === 'none') target(`pack --method none (303 MB), wall, median of 3`, r.ms, 'cp -r', cp!.ms, 1.2, [none!.spread, cp!.spread]);
    else {
      target(`pack ${method} (303 MB), wall`, r.ms, 'gzip -6', gzip6, 1.0);
      // Both cores busy: two cores' worth of wall time within 10% of the CPU time used.
      target(`  2 × wall (both cores busy)`, 2 * r.ms, 'CPU time', r.cpuMs, 1.1);
    }
    if (method === 'lz77') limit('  LZ77 archive size, 303 MB corpus', (await stat(out!)).size / 1e6, HPIPACK_LZ77_MB, 'MB');
    limit(`  peak RSS of modpak pack (${method})`, r.maxRssKb / 1024, 128, 'MB');
    if (out !== null) await rm(out, { force: true });
  }
  const medium = await corpusFolder(MEDIUM_CORPUS.count, MEDIUM_CORPUS.seed, MEDIUM_CORPUS.scale);
  const out = join(dir, 'cli-pack-medium.hpi');
  await runCli(['pack', medium.dir, '--target', out], dir);
  figure('88 MB corpus', `${medium.files} files, ${(medium.bytes / 1e6).toFixed(1)} MB`);
  limit(
    '  LZ77 archive size, 88 MB corpus',
    (await stat(out)).size / 1e6,
    Number(((MEDIUM_LZ77_BEFORE * HPIPACK_SHARE_MEDIUM) / 1e6).toFixed(2)),
    'MB',
  );
  await rm(out, { force: true });
}

if (process.argv[2] === '--extract-child') await child(process.argv[3]!, process.argv[4]!, process.argv[5] ?? 'auto');
