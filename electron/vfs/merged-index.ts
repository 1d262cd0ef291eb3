import type { ArchiveEntry } from '../formats/index.js';
import type { Provider } from '../../shared/vfs-types.js';
import { lookupKey } from './keys.js';
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
  private readonly hitsByEntries = new WeakMap<readonly ArchiveEntry[], { layer: number; archive: string | null; hits: Hit[] }>();

  /** Per entry, its path number (-1 for a folder). */
  of(entries: readonly ArchiveEntry[]): Int32Array {
    let out = this.byEntries.get(entries);
    if (out) return out;
    const { numbers, keys } = this;
    out = new Int32Array(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      if (entry.dir) {
        out[i] = -1;
        continue;
      }
      const key = lookupKey(entry.path);
      let n = numbers.get(key);
      if (n === undefined) {
        n = keys.length;
        numbers.set(key, n);
        keys.push(key);
      }
      out[i] = n;
    }
    this.byEntries.set(entries, out);
    return out;
  }

  /** Per entry, its hit at `layer` (holes for folders): the previous placement's when the rank is the same. */
  hits(layerAt: Layer, layer: number): Hit[] {
    const { entries, archive } = layerAt;
    const held = this.hitsByEntries.get(entries);
    if (held && held.layer === layer && held.archive === archive) return held.hits;
    // Rows name the archive, so they carry over to the new rank only under the same name.
    const rows = held?.archive === archive ? held.hits : null;
    const hits = new Array<Hit>(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      if (!entry.dir) hits[i] = { layer, entry, row: rows?.[i]?.row };
    }
    this.hitsByEntries.set(entries, { layer, archive, hits });
    return hits;
  }
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
  /** Per layer, per entry, its path number. */
  private readonly numbered: Int32Array[];
  /**
   * By path number: the one provider of a path nothing shadows (nearly all of them), else its list; an
   * array per path is made only when asked for (60,000 one-element arrays were a tenth of a mount's GC).
   * Undefined for numbers of paths this index does not hold.
   */
  private readonly lists: (Hit | Hit[] | undefined)[];
  /** Per path number: 0 one provider (`lists` holds the Hit), 1 shadowed, 2 one provider whose list was made. */
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
    const numbered = (this.numbered = layers.map((l) => paths.of(l.entries)));
    const lists = (this.lists = new Array<Hit | Hit[] | undefined>(paths.keys.length));
    const shadowed = (this.shadowedFlags = new Uint8Array(paths.keys.length));
    const order = new Int32Array(numbered.reduce((sum, numbers) => sum + numbers.length, 0));
    for (let layer = 0; layer < layers.length; layer++) {
      const numbers = numbered[layer]!;
      const hits = paths.hits(layers[layer]!, layer);
      for (let i = 0; i < numbers.length; i++) {
        const n = numbers[i]!;
        if (n < 0) continue;
        const list = lists[n];
        if (list === undefined) {
          lists[n] = hits[i]!;
          order[this.pathCount++] = n;
        } else {
          if (shadowed[n] === 1) (list as Hit[]).push(hits[i]!);
          else lists[n] = [list as Hit, hits[i]!];
          shadowed[n] = 1;
        }
        this.entryCount++;
      }
    }
    this.order = order.subarray(0, this.pathCount);
  }

  /** The number of a path key, or -1 when no layer has it. */
  numberOf(key: string): number {
    const n = this.paths.numbers.get(key);
    return n !== undefined && n < this.lists.length && this.lists[n] !== undefined ? n : -1;
  }

  /** The providers of path number `n` (one numberOf answered), winner first. */
  hitsOf(n: number): readonly Hit[] {
    const list = this.lists[n]!;
    if (this.shadowedFlags[n] !== 0) return list as Hit[];
    const one = [list as Hit];
    this.lists[n] = one;
    this.shadowedFlags[n] = 2;
    return one;
  }

  /** The winner of path number `n` (one numberOf answered), without making its list. */
  winnerOf(n: number): Hit {
    const list = this.lists[n]!;
    return this.shadowedFlags[n] === 0 ? (list as Hit) : (list as Hit[])[0]!;
  }

  /** How many providers path number `n` has. */
  countOf(n: number): number {
    return this.shadowedFlags[n] === 0 ? 1 : (this.lists[n] as Hit[]).length;
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
