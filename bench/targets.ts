/**
 * Issue-15 targets: each benchmark prints its figure beside a reference measured in the same run, with
 * ✓ or ✗. Nothing fails on a ✗: CI times nothing, and a busy machine would make such a check flaky.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { scratchDir } from './util.js';

/**
 * Prints `label  measured vs limit  ✓|✗`; `ratio` is the allowed multiple of the reference. With `runs`,
 * the spreads of the sets the two medians come from: where either set's slowest run took over half as long
 * again as its fastest, the machine changed speed while they ran and the verdict is `?`, not judged (a ✓
 * from a `cp -r` median that landed on slowed runs was no ✓).
 */
export function target(
  label: string,
  measuredMs: number,
  referenceLabel: string,
  referenceMs: number,
  ratio: number,
  runs?: Spread[],
): boolean | null {
  const steady = runs?.every(isSteady) ?? true;
  const ok = steady ? measuredMs <= referenceMs * ratio : null;
  // Two decimals, but never 0.00× (modpak packs Pangya's corpus in 1.1 s, where lzpak took 436 s).
  const multiple = measuredMs / referenceMs;
  const x = multiple < 0.005 ? multiple.toPrecision(2) : multiple.toFixed(2);
  console.log(
    `${ok === null ? '?' : ok ? '✓' : '✗'} ${label.padEnd(42)} ${fmt(measuredMs).padStart(9)}  = ${x}× ${referenceLabel} (${fmt(referenceMs)}), target ≤ ${ratio}×${ok === null ? ': not judged, the runs were unsteady' : ''}`,
  );
  return ok;
}

/**
 * The fastest and slowest of a set of runs (see `inFreshFoldersInTurns`). In a set of five or more, the
 * slowest run is set aside as an outlier and the next one stands for the slowest: its median is the
 * third of five either way.
 */
export type Spread = [fastest: number, slowest: number];

/** A sorted set's spread: one outlier set aside from five runs up (see `Spread`). */
export function spreadOf(sortedMs: readonly number[]): Spread {
  return [sortedMs[0]!, sortedMs[sortedMs.length - (sortedMs.length >= OUTLIER_FROM ? 2 : 1)]!];
}

/**
 * Runs from which one outlier is set aside. The VM the bench was written on has slow spells of seconds
 * (a 0.55 s cp -r took 3.7-4.3 s), which met one run in most sets of three: with three runs every such
 * set went unjudged, with five its median still stood among steady runs.
 */
const OUTLIER_FROM = 5;

/**
 * Whether a set of runs held one speed: its slowest at most 1.5× its fastest. At steady speed the bench's
 * sets stayed well within it (cp -r onto disk 544-553 ms); with 559 ms / 1.06 s, cp -r's median was 746 ms
 * and the rows against it read met or missed by a few milliseconds.
 */
export const isSteady = ([fastest, slowest]: Spread): boolean => slowest <= 1.5 * fastest;

/** Prints an absolute target: `label  measured  ✓|✗ (target ≤ limit unit)`. */
export function limit(label: string, measured: number, max: number, unit: string): boolean {
  const ok = measured <= max;
  console.log(`${ok ? '✓' : '✗'} ${label.padEnd(42)} ${`${round(measured)} ${unit}`.padStart(12)}  target ≤ ${max} ${unit}`);
  return ok;
}

const round = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
/** `850 ms`, `1.20 s`. */
export const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

/** Wall time of one run of `command` with `args`, started directly (no shell); throws naming `label` if it fails. */
function spawnMs(command: string, args: string[], label: string): number {
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`${label}: exit ${result.status}: ${result.stderr.toString().trim()}`);
  return ms;
}

/** Wall time of a shell command (run through `sh -c`), the median of `runs`; throws if it fails. */
export function shellMs(command: string, runs = 1): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(spawnMs('sh', ['-c', command], command));
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const q = (path: string) => `'${path.replace(/'/g, `'\\''`)}'`;

/** References the issue names: `gzip -6` of a folder's bytes, `gzip -dc` of them, `cp -r` of the tree. */
export const references = {
  /** tar's framing is cheap next to deflate; this is "gzip -6 of the same bytes". */
  gzip6: (folder: string, out: string) => shellMs(`tar -cf - -C ${q(folder)} . | gzip -6 > ${q(out)}`),
  gunzip: (gz: string) => shellMs(`gzip -dc ${q(gz)} > /dev/null`),
  cpTree: (folder: string, target: string) => shellMs(`rm -rf ${q(target)} && cp -r ${q(folder)} ${q(target)}`),
  nodeStart: () => shellMs(`${q(process.execPath)} -e 0`, 5),
};

/**
 * A peer tool built from its public sources, where the environment names its binary (`variable`); null
 * elsewhere. Its runs go in the same turns as modpak's, so its targets are measured, not derived.
 */
export function peerTool(variable: string): string | null {
  const path = process.env[variable];
  if (!path) return null;
  if (existsSync(path)) return path;
  console.log(`${variable} names ${path}, which does not exist: its targets are derived from the issue's figures`);
  return null;
}

/**
 * A command's run into a run's folder (created first and untimed, as some tools want), wall time only,
 * started directly with nothing loaded into it (no shell, no usage hook); throws if it fails. The C peers
 * run so, and modpak beside them where its start is a large share of the time.
 */
export const bareRun = (command: string, args: (out: string) => string[]) => async (out: string) => {
  await mkdir(out, { recursive: true });
  return { ms: spawnMs(command, args(out), command), cpuMs: NaN, maxRssKb: 0 };
};

/** `cp -r` of `folder` into a run's folder, as a run beside modpak's (wall time only), or as a set's warm-up. */
export const cpTreeRun = (folder: string) => async (out: string) => ({ ms: references.cpTree(folder, out), cpuMs: NaN, maxRssKb: 0 });

/**
 * The median of `n` runs, each into a folder of its own that does not exist yet, as a user extracts: see
 * `inFreshFoldersInTurns`, with one command.
 */
export async function inFreshFolders<R extends { ms: number }>(
  base: string,
  n: number,
  fn: (out: string) => Promise<R>,
  options: FreshFolderOptions = {},
): Promise<R> {
  return (await inFreshFoldersInTurns(base, n, [fn], options))[0]!;
}

export interface FreshFolderOptions {
  /** Run once, untimed, into a folder of its own before the first round (see `inFreshFoldersInTurns`). */
  warmUp?: (out: string) => unknown;
  /** The pause before an unsteady set is measured again (RETRY_AFTER_MS). */
  retryAfterMs?: number;
}

/**
 * Several commands taken in turns, each run into a folder of its own that does not exist yet, as a user
 * extracts: round after round, each command once, with a `sync` after each run so that one run's writeback
 * never lands in the next one's time. In turns, a slow minute hits every command alike; and each round
 * starts one command later, so that no command always runs first: on a VM whose host hands memory back
 * on first touch, the runs just after a set of folders was removed write into pages still mapped, and
 * the later ones pay for fresh pages (on the bench machine 0.45 s against up to 1.3 s for `cp -r`).
 * Every folder is discarded only after the last round (see `discard`). The disk is ext4 without a
 * journal, whose inode allocator skips inodes freed in the last minutes: the first tree created after a
 * 30,000-file tree was removed paid up to 20 s of kernel time scanning past them (cp -r 14 s, then 1.6 s
 * twice), whichever command it was. So a set on disk says when it follows an emptying of the trash, and a
 * `warmUp` tree, untimed, goes first. Returns each command's median run, with the fastest and slowest (a
 * wide spread of the reference says the machine changed speed during the runs). A set in which any
 * command's runs were unsteady is measured once more after a pause, and the second set stands whatever it
 * shows, so that one short slow spell does not leave a row without a verdict.
 */
export async function inFreshFoldersInTurns<R extends { ms: number }>(
  base: string,
  rounds: number,
  fns: ((out: string) => Promise<R>)[],
  options: FreshFolderOptions = {},
): Promise<(R & { spread: Spread })[]> {
  const first = await setInTurns(base, rounds, fns, options);
  const unsteady = first.filter((r) => !isSteady(r.spread));
  if (unsteady.length === 0) return first;
  const pause = options.retryAfterMs ?? RETRY_AFTER_MS;
  const spreads = unsteady.map(({ spread: [fastest, slowest] }) => `${fmt(fastest)} / ${fmt(slowest)}`).join(', ');
  console.log(`(a set of runs was unsteady, fastest / slowest ${spreads}: measured once more, ${pause / 1000} s on)`);
  await new Promise((resolve) => setTimeout(resolve, pause));
  return setInTurns(base, rounds, fns, options);
}

/**
 * How long an unsteady set waits before it is measured again: long enough for the bench machine's short
 * slow spells to pass. Its long ones (minutes) leave the second set unjudged too.
 */
const RETRY_AFTER_MS = 20_000;

/** One set of `inFreshFoldersInTurns`. */
async function setInTurns<R extends { ms: number }>(
  base: string,
  rounds: number,
  fns: ((out: string) => Promise<R>)[],
  options: FreshFolderOptions,
): Promise<(R & { spread: Spread })[]> {
  const runs: R[][] = fns.map(() => []);
  const outs: string[] = [];
  if (base.startsWith(scratchDir)) await noteRecentTrashEmptying();
  shellMs('sync');
  try {
    if (options.warmUp) {
      const out = join(base, `modpak-bench-${process.pid}-warm-up`);
      outs.push(out);
      await options.warmUp(out);
      shellMs('sync');
    }
    for (let round = 0; round < rounds; round++) {
      for (let turn = 0; turn < fns.length; turn++) {
        const i = (round + turn) % fns.length;
        const out = join(base, `modpak-bench-${process.pid}-${round}-${i}`);
        outs.push(out);
        runs[i]!.push(await fns[i]!(out));
        shellMs('sync');
      }
    }
    return runs.map((r) => {
      r.sort((a, b) => a.ms - b.ms);
      return { ...r[Math.floor(rounds / 2)]!, spread: spreadOf(r.map((run) => run.ms)) };
    });
  } finally {
    for (const out of outs) await discard(out);
    shellMs('sync');
  }
}

const TRASH = join(scratchDir, 'trash');
const TRASH_EMPTIED_AT = join(scratchDir, 'trash-emptied-at');
/**
 * How long ext4 without a journal passes over a freed inode: a minute, five more while its inode table
 * block is not written back. cp -r was still 3.0 s, not 0.5-1.5 s, two minutes after 22 trees were removed.
 */
const INODE_QUARANTINE_MS = 360_000;
let discarded = 0;

/**
 * Out of the way, not removed: a tree under .bench/ is renamed into .bench/trash/, which `npm run bench`
 * empties once all benchmarks ran, so no timed run on disk follows a removal (see
 * `inFreshFoldersInTurns`). Elsewhere (tmpfs) it is removed at once.
 */
export async function discard(path: string): Promise<void> {
  if (!path.startsWith(scratchDir)) return rm(path, { recursive: true, force: true });
  await mkdir(TRASH, { recursive: true });
  await rename(path, join(TRASH, `${process.pid}-${discarded++}`)).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/** Remove what `discard` set aside, and note when, so the next run's disk sets can say they follow it. */
export async function emptyTrash(): Promise<void> {
  if (!existsSync(TRASH)) return;
  await rm(TRASH, { recursive: true, force: true });
  shellMs('sync');
  await writeFile(TRASH_EMPTIED_AT, String(Date.now()));
}

/** Says so when the trash was emptied recently enough to slow the disk rows (waiting would take minutes). */
async function noteRecentTrashEmptying(): Promise<void> {
  const emptied = Number(await readFile(TRASH_EMPTIED_AT, 'utf8').catch(() => '0'));
  const ago = Date.now() - emptied;
  if (ago >= INODE_QUARANTINE_MS) return;
  console.log(
    `(the bench trash was emptied ${Math.round(ago / 1000)} s ago: ext4 may still pass over its inodes, so the disk rows may be slow)`,
  );
}
