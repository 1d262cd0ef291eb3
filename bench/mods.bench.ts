/**
 * Watch and repack: the time from a saved change to the rebuilt .ufo (renamed into place), for a 9-file
 * unit mod and for a 2,000-file mod, with the real watcher (chokidar, awaitWriteFinish) and the real
 * export (HPI v1, LZ77). The figure that matters is the latency beyond the debounce: it is what a modder
 * waits for after the quiet period they chose. Files come from the shared TA-like corpus generator.
 */
import { performance } from 'node:perf_hooks';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { corpusFiles, type CorpusFile } from './corpus.js';
import { prng } from '../tests/helpers/prng.js';
import { figure, scratch } from './util.js';
import { RepackWatcher } from '../electron/mods/watch.js';
import { repackBuilder } from '../electron/mods/export.js';
import type { WatchStatus } from '../shared/mods-types.js';

const DEBOUNCE_MS = 100;

/** A unit mod as modders ship one: its FBI, model, script, picture, animations, weapon and sounds. */
function unitMod(): CorpusFile[] {
  const rand = prng(9);
  const text = (lines: string[]) => new TextEncoder().encode(lines.join('\r\n') + '\r\n');
  const runs = (size: number) => {
    const out = new Uint8Array(size);
    for (let i = 0; i < size;) {
      const len = 1 + Math.floor(rand() * 40);
      out.fill(Math.floor(rand() * 256), i, Math.min(size, i + len));
      i += len;
    }
    return out;
  };
  const ints = (size: number) => {
    const out = new Uint8Array(size);
    const view = new DataView(out.buffer);
    let v = 0;
    for (let i = 0; i + 4 <= size; i += 4) view.setInt32(i, (v += Math.floor(rand() * 64) - 32) * 65536, true);
    return out;
  };
  const noise = (size: number) => Uint8Array.from({ length: size }, () => Math.floor(rand() * 256));
  const keys = Array.from({ length: 60 }, (_, i) => `\tKey${i}=${Math.floor(rand() * 5000)};`);
  return [
    { path: 'units/ARMZEUS.FBI', bytes: text(['[UNITINFO]', '{', '\tUnitName=ARMZEUS;', '\tMaxDamage=2400;', ...keys, '}']) },
    { path: 'objects3d/ARMZEUS.3DO', bytes: ints(42_000) },
    { path: 'scripts/ARMZEUS.COB', bytes: ints(7_000) },
    { path: 'unitpics/ARMZEUS.PCX', bytes: runs(5_200) },
    { path: 'anims/ARMZEUS.GAF', bytes: runs(64_000) },
    { path: 'anims/buildpic/ARMZEUS.PCX', bytes: runs(5_200) },
    {
      path: 'weapons/ARMZEUS_WEAPON.TDF',
      bytes: text(['[ARMZEUS_WEAPON]', '{', '\tname=Lightning Gun;', '\trange=280;', '\t[DAMAGE]', '\t{', '\t\tdefault=90;', '\t}', '}']),
    },
    { path: 'sounds/zeusfire.wav', bytes: noise(24_000) },
    { path: 'sounds/zeussel.wav', bytes: noise(12_000) },
  ];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const worst = (xs: number[]) => Math.max(...xs);

async function measure(label: string, files: Iterable<CorpusFile>, rounds: number): Promise<void> {
  const base = await scratch(`mods-${label.replace(/\W+/g, '-')}`);
  await rm(base, { recursive: true, force: true });
  const dir = join(base, 'mod');
  const target = join(base, 'mod.ufo');
  let bytes = 0;
  let count = 0;
  const texts: string[] = [];
  for (const f of files) {
    count++;
    await mkdir(dirname(join(dir, f.path)), { recursive: true });
    await writeFile(join(dir, f.path), f.bytes);
    bytes += f.bytes.length;
    if (/\.(fbi|tdf)$/i.test(f.path)) texts.push(f.path);
  }

  let onOk: ((s: WatchStatus) => void) | null = null;
  const started = performance.now();
  const watcher = await RepackWatcher.start({
    dir,
    target,
    debounceMs: DEBOUNCE_MS,
    build: repackBuilder({ dir, target }),
    onStatus: (s) => {
      if (s.state === 'ok' || s.state === 'failed') onOk?.(s);
    },
  });
  await watcher.idle();
  const first = performance.now() - started;

  const latencies: number[] = [];
  const builds: number[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      const path = texts[r % texts.length]!;
      const done = new Promise<WatchStatus>((resolve) => (onOk = resolve));
      await writeFile(join(dir, path), `[UNITINFO]\r\n{\r\n\tUnitName=BENCH${r};\r\n\tMaxDamage=${r};\r\n}\r\n`);
      const saved = performance.now();
      const status = await done;
      latencies.push(performance.now() - saved);
      if (!status.lastBuild?.ok) throw new Error(`build failed: ${status.lastBuild?.message}`);
      builds.push(status.lastBuild.durationMs);
      await watcher.idle();
      await new Promise((r) => setTimeout(r, 150));
    }
  } finally {
    await watcher.close();
  }
  const beyond = latencies.map((l) => l - DEBOUNCE_MS);
  const size = bytes < 1048576 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1048576).toFixed(1)} MB`;
  figure(`${label}: ${count} files, ${size}, first build`, `${first.toFixed(0)} ms`);
  figure(
    `${label}: save → rebuilt .ufo beyond the debounce (median)`,
    `${median(beyond).toFixed(0)} ms`,
    count < 100 ? '< 300 ms' : undefined,
  );
  figure(`${label}: same, worst of ${rounds}`, `${worst(beyond).toFixed(0)} ms`);
  figure(`${label}: of which the build itself (median)`, `${median(builds).toFixed(0)} ms`);
  await rm(base, { recursive: true, force: true });
}

export async function run(): Promise<void> {
  console.log(`debounce ${DEBOUNCE_MS} ms; latency counts chokidar's event, awaitWriteFinish's settle time and the build`);
  await measure('unit mod', unitMod(), 12);
  await measure('large mod', corpusFiles(2000, 67), 5);
}
