/**
 * Watch and repack: the time from a saved change to the rebuilt .ufo (renamed into place), for a 9-file
 * unit mod and for a 2,000-file mod, with the real watcher (chokidar, awaitWriteFinish) and the real
 * export (HPI v1, LZ77). The figure that matters is the latency beyond the debounce: it is what a modder
 * waits for after the quiet period they chose. Files come from the shared TA-like corpus generator.
 */
import { performance } from 'node:perf_hooks';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { corpusFiles } from './corpus.js';
import { figure, scratch } from './util.js';
import { RepackWatcher } from '../electron/mods/watch.js';
import { exportWorkspace } from '../electron/mods/export.js';
import type { WatchStatus } from '../shared/mods-types.js';

const DEBOUNCE_MS = 100;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const worst = (xs: number[]) => Math.max(...xs);

async function measure(label: string, count: number, rounds: number): Promise<void> {
  const base = await scratch(`mods-${count}`);
  await rm(base, { recursive: true, force: true });
  const dir = join(base, 'mod');
  const target = join(base, 'mod.ufo');
  let bytes = 0;
  const texts: string[] = [];
  for (const f of corpusFiles(count, 67)) {
    await mkdir(dirname(join(dir, f.path)), { recursive: true });
    await writeFile(join(dir, f.path), f.bytes);
    bytes += f.bytes.length;
    if (/\.(fbi|tdf)$/.test(f.path)) texts.push(f.path);
  }

  let onOk: ((s: WatchStatus) => void) | null = null;
  const started = performance.now();
  const watcher = await RepackWatcher.start({
    dir,
    target,
    debounceMs: DEBOUNCE_MS,
    build: () => exportWorkspace({ dir, target }),
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
  figure(`${label}: ${count} files, ${(bytes / 1048576).toFixed(1)} MB, first build`, `${first.toFixed(0)} ms`);
  figure(`${label}: save → rebuilt .ufo beyond the debounce (median)`, `${median(beyond).toFixed(0)} ms`, count < 100 ? '< 300 ms' : undefined);
  figure(`${label}: same, worst of ${rounds}`, `${worst(beyond).toFixed(0)} ms`);
  figure(`${label}: of which the build itself (median)`, `${median(builds).toFixed(0)} ms`);
  await rm(base, { recursive: true, force: true });
}

export async function run(): Promise<void> {
  console.log(`debounce ${DEBOUNCE_MS} ms; latency counts chokidar's event, awaitWriteFinish's settle time and the build`);
  await measure('unit mod', 9, 12);
  await measure('large mod', 2000, 5);
}
