import type { ArchiveEntry } from '../formats/index.js';
import type { Provider } from '../../shared/vfs-types.js';
import { lookupKey } from './keys.js';
import { PathTable } from './path-table.js';
import type { Layer } from './layers.js';

/** One provider of a path: which layer (index into the priority order) and which of its entries. */
export interface Hit {
  readonly layer: number;
  readonly entry: ArchiveEntry;
  /** Its answer row, made on first use by MountedInstall.provider. */
  row?: Readonly<Provider>;
}

/**
 * Every path of the install, layered: one table from the path key (upper-case ASCII, `/` separators) to a
 * path number, and per number its providers in priority order. Built once at mount by walking the layers
 * highest first and each layer's entries in stored order, so the first hit is the winner (and, inside one
 * archive, the first stored entry beats a later duplicate). Lookups are O(1) through a PathTable (typed
 * arrays, hashed while folding case, no allocation per canonical query); whether a path is shadowed sits
 * in a byte array (60 KB for 60,000 paths, cache-resident), so a lookup touches as little memory as it can.
 */
export class MergedIndex {
  private readonly keys: string[] = [];
  /** Path key → path number (MountedInstall.resolve asks it directly: see there). */
  readonly table: PathTable;
  private readonly lists: Hit[][] = [];
  private readonly shadowedFlags: Uint8Array;
  private entryCount = 0;

  constructor(readonly layers: readonly Layer[]) {
    const { keys, lists } = this;
    // A Map while building (entries arrive layer by layer); the lookup table is built once from it.
    const numbers = new Map<string, number>();
    for (let layer = 0; layer < layers.length; layer++) {
      const entries = layers[layer]!.entries;
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i]!;
        if (entry.dir) continue;
        const key = lookupKey(entry.path);
        const hit: Hit = { layer, entry, row: undefined };
        const n = numbers.get(key);
        if (n === undefined) {
          numbers.set(key, lists.length);
          keys.push(key);
          lists.push([hit]);
        } else lists[n]!.push(hit);
        this.entryCount++;
      }
    }
    this.shadowedFlags = Uint8Array.from(lists, (l) => (l.length > 1 ? 1 : 0));
    this.table = new PathTable(keys);
  }

  /** The providers of path number `n`, winner first. */
  hitsOf(n: number): readonly Hit[] {
    return this.lists[n]!;
  }

  /** Whether path number `n` has more than one provider. */
  isShadowed(n: number): boolean {
    return this.shadowedFlags[n] === 1;
  }

  /** Providers of a path (any case, either separator), winner first; undefined when nothing has it. */
  lookup(path: string): readonly Hit[] | undefined {
    const n = this.table.find(path);
    return n < 0 ? undefined : this.lists[n];
  }

  /** Providers by an already computed key. */
  lookupKey(key: string): readonly Hit[] | undefined {
    const n = this.table.findKey(key);
    return n < 0 ? undefined : this.lists[n];
  }

  /** Distinct paths. */
  get size(): number {
    return this.lists.length;
  }

  /** Entries across every layer. */
  get entries(): number {
    return this.entryCount;
  }

  /** Every path key with its providers, in first-seen order (highest layer first, stored order). */
  *all(): IterableIterator<[string, readonly Hit[]]> {
    for (let n = 0; n < this.lists.length; n++) yield [this.keys[n]!, this.lists[n]!];
  }
}
