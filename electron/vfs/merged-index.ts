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
 * Every path of the install, layered: one Map from the path key (upper-case ASCII, `/` separators) to its
 * providers in priority order. Built once at mount by walking the layers highest first and each layer's
 * entries in stored order, so the first hit is the winner (and, inside one archive, the first stored
 * entry beats a later duplicate). Lookups are O(1).
 */
export class MergedIndex {
  private readonly map = new Map<string, Hit[]>();
  private entryCount = 0;

  constructor(readonly layers: readonly Layer[]) {
    const map = this.map;
    for (let layer = 0; layer < layers.length; layer++) {
      const entries = layers[layer]!.entries;
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i]!;
        if (entry.dir) continue;
        const key = lookupKey(entry.path);
        const hits = map.get(key);
        const hit: Hit = { layer, entry, row: undefined };
        if (hits) hits.push(hit);
        else map.set(key, [hit]);
        this.entryCount++;
      }
    }
  }

  /** Providers of a path (any case, either separator), winner first; undefined when nothing has it. */
  lookup(path: string): readonly Hit[] | undefined {
    return this.map.get(lookupKey(path));
  }

  /** Providers by an already computed key. */
  lookupKey(key: string): readonly Hit[] | undefined {
    return this.map.get(key);
  }

  /** Distinct paths. */
  get size(): number {
    return this.map.size;
  }

  /** Entries across every layer. */
  get entries(): number {
    return this.entryCount;
  }

  /** Every path key with its providers, in first-seen order (highest layer first, stored order). */
  all(): IterableIterator<[string, readonly Hit[]]> {
    return this.map.entries();
  }
}
