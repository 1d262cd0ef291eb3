import type { ArchiveEntry } from '../formats/index.js';
import type { Provider } from '../../shared/vfs-types.js';
import { lookupKey, lookupKeys } from './keys.js';
import type { Layer } from './layers.js';

/** One provider of a path: which layer (index into the priority order) and which of its entries. */
export interface Hit {
  readonly layer: number;
  readonly entry: ArchiveEntry;
  /** Its answer row, made on first use by MountedInstall.provider. */
  row?: Readonly<Provider>;
}

/**
 * The path keys an install's mounts have met, numbered once and shared by each index built after the
 * previous one (an incremental re-mount): only an entry list not seen before has its keys computed and
 * hashed. Numbers are never reused, so a number of an older index still names the same path; keys only
 * accumulate (the paths of every archive the install has held this session). Per entry list it also keeps
 * the hits of its last placement, which a re-mount hands out again while the layer keeps its rank.
 */
class PathNumbers {
  readonly numbers = new Map<string, number>();
  readonly keys: string[] = [];
  private readonly byEntries = new WeakMap<readonly ArchiveEntry[], Int32Array>();
  private readonly hitsByEntries = new WeakMap<readonly ArchiveEntry[], LayerHits>();

  /** Per entry, its path number (-1 for a folder). */
  of(entries: readonly ArchiveEntry[]): Int32Array {
    let out = this.byEntries.get(entries);
    if (out) return out;
    out = numberKeys(entries, lookupKeys(filePaths(entries)), this.numbers, this.keys);
    this.byEntries.set(entries, out);
    return out;
  }

  /**
   * The hits of an entry list at `layer`, each made on first use: the previous placement's when the rank
   * is the same. 60,000 hit objects made at every mount, most never asked for, were a fifth of its garbage.
   */
  hits(layerAt: Layer, layer: number): LayerHits {
    const { entries, archive } = layerAt;
    const held = this.hitsByEntries.get(entries);
    if (held && held.layer === layer && held.archive === archive) return held;
    // Rows name the archive, so they carry over to the new rank only under the same name.
    const rows = held?.archive === archive ? held.rows : new Array<Readonly<Provider> | undefined>(entries.length);
    const hits = new LayerHits(layer, archive, entries, rows);
    this.hitsByEntries.set(entries, hits);
    return hits;
  }
}

/** The paths of the files among `entries` (each pass over a list is a function of its own: see dataStarts in formats/hpi). */
function filePaths(entries: readonly ArchiveEntry[]): string[] {
  const files: string[] = [];
  for (let i = 0; i < entries.length; i++) if (!entries[i]!.dir) files.push(entries[i]!.path);
  return files;
}

/** Per entry, the number of its key (`fileKeys` holds the files' keys in order), numbering new keys; -1 for a folder. */
function numberKeys(
  entries: readonly ArchiveEntry[],
  fileKeys: readonly string[],
  numbers: Map<string, number>,
  keys: string[],
): Int32Array {
  const out = new Int32Array(entries.length);
  let f = 0;
  for (let i = 0; i < entries.length; i++) {
    if (entries[i]!.dir) {
      out[i] = -1;
      continue;
    }
    const key = fileKeys[f++]!;
    let n = numbers.get(key);
    if (n === undefined) {
      n = keys.length;
      numbers.set(key, n);
      keys.push(key);
    }
    out[i] = n;
  }
  return out;
}

/**
 * One layer's hits by entry index, each made when first asked for (a folder entry has none). Their rows
 * live in `rows`, which every placement of the same entry list under the same archive name shares.
 */
class LayerHits {
  private readonly made: (Hit | undefined)[];

  constructor(
    readonly layer: number,
    readonly archive: string | null,
    private readonly entries: readonly ArchiveEntry[],
    readonly rows: (Readonly<Provider> | undefined)[],
  ) {
    this.made = new Array<Hit | undefined>(entries.length);
  }

  entry(i: number): ArchiveEntry {
    return this.entries[i]!;
  }

  at(i: number): Hit {
    let hit = this.made[i];
    if (hit === undefined) this.made[i] = hit = new LayerHit(this.layer, this.entries[i]!, this.rows, i);
    return hit;
  }
}

class LayerHit implements Hit {
  constructor(
    readonly layer: number,
    readonly entry: ArchiveEntry,
    private readonly rows: (Readonly<Provider> | undefined)[],
    private readonly i: number,
  ) {}

  get row(): Readonly<Provider> | undefined {
    return this.rows[this.i];
  }

  set row(row: Readonly<Provider> | undefined) {
    this.rows[this.i] = row;
  }
}

/** What MergedIndex's constructor fills in, layer by layer. */
interface Placed {
  readonly winnerLayer: Int32Array;
  readonly winnerEntry: Int32Array;
  readonly shadowed: Uint8Array;
  readonly lists: Map<number, Hit[]>;
  readonly layerHits: readonly LayerHits[];
  readonly order: Int32Array;
  paths: number;
  entries: number;
}

/** One layer's entries placed under their path numbers: a first provider wins, a later one is shadowed. */
function placeLayer(placed: Placed, layer: number, numbers: Int32Array): void {
  const { winnerLayer, winnerEntry, order } = placed;
  let paths = placed.paths;
  let entries = 0;
  for (let i = 0; i < numbers.length; i++) {
    const n = numbers[i]!;
    if (n < 0) continue;
    entries++;
    if (winnerLayer[n]! < 0) {
      winnerLayer[n] = layer;
      winnerEntry[n] = i;
      order[paths++] = n;
    } else shadow(placed, n, layer, i);
  }
  placed.paths = paths;
  placed.entries += entries;
}

function shadow(placed: Placed, n: number, layer: number, i: number): void {
  const hit = placed.layerHits[layer]!.at(i);
  const list = placed.lists.get(n);
  if (list) list.push(hit);
  else placed.lists.set(n, [placed.layerHits[placed.winnerLayer[n]!]!.at(placed.winnerEntry[n]!), hit]);
  placed.shadowed[n] = 1;
}

/**
 * Every path of the install, layered: path key (upper-case ASCII, `/` separators) → path number, and per
 * number its providers in priority order. Built by walking the layers highest first and each layer's
 * entries in stored order, so the first hit is the winner (and, inside one archive, the first stored entry
 * beats a later duplicate). Given the index it replaces, the numbering and the keys of every entry list
 * it already held are reused: a re-mount after one archive changed hashes that archive's paths only.
 */
export class MergedIndex {
  private readonly paths: PathNumbers;
  /** Per layer, its hits by entry index (made on first use). */
  private readonly layerHits: LayerHits[];
  /**
   * By path number: the winner's layer (-1 for numbers of paths this index does not hold) and its entry
   * index there. A path nothing shadows (nearly all of them) needs nothing else; no object per path.
   */
  private readonly winnerLayer: Int32Array;
  private readonly winnerEntry: Int32Array;
  /** The providers of the shadowed paths, winner first, by path number; another path's list is made when asked for. */
  private readonly lists = new Map<number, Hit[]>();
  /** Per path number: 1 when shadowed. */
  private readonly shadowedFlags: Uint8Array;
  /** The path numbers in first-seen order (see `all`). */
  private readonly order: Int32Array;
  private pathCount = 0;
  private entryCount = 0;

  constructor(
    readonly layers: readonly Layer[],
    previous?: MergedIndex,
  ) {
    const paths = (this.paths = previous?.paths ?? new PathNumbers());
    const numbered = layers.map((l) => paths.of(l.entries));
    const layerHits = (this.layerHits = layers.map((l, i) => paths.hits(l, i)));
    const known = paths.keys.length;
    const winnerLayer = (this.winnerLayer = new Int32Array(known).fill(-1));
    const winnerEntry = (this.winnerEntry = new Int32Array(known));
    const shadowed = (this.shadowedFlags = new Uint8Array(known));
    const order = new Int32Array(numbered.reduce((sum, numbers) => sum + numbers.length, 0));
    const placed: Placed = { winnerLayer, winnerEntry, shadowed, lists: this.lists, layerHits, order, paths: 0, entries: 0 };
    for (let layer = 0; layer < layers.length; layer++) placeLayer(placed, layer, numbered[layer]!);
    this.pathCount = placed.paths;
    this.entryCount = placed.entries;
    this.order = order.subarray(0, placed.paths);
  }

  /** One more than the highest path number this index can answer (numbers run from 0). */
  get numberLimit(): number {
    return this.winnerLayer.length;
  }

  /** The number of a path key, or -1 when no layer has it. */
  numberOf(key: string): number {
    const n = this.paths.numbers.get(key);
    return n !== undefined && n < this.winnerLayer.length && this.winnerLayer[n]! >= 0 ? n : -1;
  }

  /** The providers of path number `n` (one numberOf answered), winner first. */
  hitsOf(n: number): readonly Hit[] {
    let list = this.lists.get(n);
    if (!list) this.lists.set(n, (list = [this.winnerOf(n)]));
    return list;
  }

  /** The winner of path number `n` (one numberOf answered), without making its list. */
  winnerOf(n: number): Hit {
    return this.layerHits[this.winnerLayer[n]!]!.at(this.winnerEntry[n]!);
  }

  /** The winner's layer and entry of path number `n` (one numberOf answered), without making its hit: a tree or a count over every path. */
  winnerLayerOf(n: number): number {
    return this.winnerLayer[n]!;
  }

  winnerEntryOf(n: number): ArchiveEntry {
    return this.layerHits[this.winnerLayer[n]!]!.entry(this.winnerEntry[n]!);
  }

  /** How many providers path number `n` has. */
  countOf(n: number): number {
    return this.shadowedFlags[n] === 0 ? 1 : this.lists.get(n)!.length;
  }

  /** Whether path number `n` has more than one provider. */
  isShadowed(n: number): boolean {
    return this.shadowedFlags[n] === 1;
  }

  /** The path numbers in first-seen order (highest layer first, stored order); do not mutate. */
  numbers(): Int32Array {
    return this.order;
  }

  /** Providers of a path (any case, either separator), winner first; undefined when nothing has it. */
  lookup(path: string): readonly Hit[] | undefined {
    return this.lookupKey(lookupKey(path));
  }

  /** Providers by an already computed key. */
  lookupKey(key: string): readonly Hit[] | undefined {
    const n = this.numberOf(key);
    return n < 0 ? undefined : this.hitsOf(n);
  }

  /** Distinct paths. */
  get size(): number {
    return this.pathCount;
  }

  /** Entries across every layer. */
  get entries(): number {
    return this.entryCount;
  }

  /** Every path key with its providers, in first-seen order (highest layer first, stored order). */
  *all(): IterableIterator<[string, readonly Hit[]]> {
    const { order } = this;
    const keys = this.paths.keys;
    for (let i = 0; i < order.length; i++) {
      const n = order[i]!;
      yield [keys[n]!, this.hitsOf(n)];
    }
  }

  /** The path numbers, sorted by key (code unit order). */
  sorted(): Int32Array {
    const { keys, numbers } = this.paths;
    const { order } = this;
    // The keys themselves, sorted natively (no comparator called from the sort), then numbered again:
    // half the time of sorting the numbers with a comparator, on 60,000 paths.
    const sortedKeys = new Array<string>(order.length);
    for (let i = 0; i < order.length; i++) sortedKeys[i] = keys[order[i]!]!;
    sortedKeys.sort();
    const out = new Int32Array(sortedKeys.length);
    for (let i = 0; i < sortedKeys.length; i++) out[i] = numbers.get(sortedKeys[i]!)!;
    return out;
  }
}
