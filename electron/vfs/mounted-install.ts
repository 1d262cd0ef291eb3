import type {
  ConflictReport,
  DefinitionKind,
  DefinitionWinner,
  GameId,
  MergedTree,
  MountReport,
  MountStats,
  Provider,
  ResolveResult,
} from '../../shared/vfs-types.js';
import { normalizeArchivePath, pathKey } from '../../shared/paths.js';
import { fail } from '../../shared/errors.js';
import type { Layer } from './layers.js';
import type { Hit, MergedIndex } from './merged-index.js';
import type { MountPlan } from './rules/index.js';
import type { Placement } from './rules/placement.js';
import { collectDefinitions, definitionConflicts } from './definitions.js';
import { isCanonicalAscii } from './keys.js';

/**
 * The `shadowed` list of a path nothing shadows: one frozen empty array shared by every such answer, so
 * a lookup allocates only its result object (answers are read, never edited).
 */
const NOTHING_SHADOWED: readonly Provider[] = Object.freeze([]);

/** How the game was chosen, for reports. */
export interface GameChoice {
  game: GameId;
  source: 'given' | 'detected';
  /** Why detection chose it (null when given). */
  reason: string | null;
}

/**
 * A mounted install: the plan that produced it, its layers in priority order, and the merged index over
 * them. Every answer here is in the shared result types (shared/vfs-types.ts), as the CLI prints them
 * with --json and the studio receives them.
 */
export class MountedInstall {
  private readonly defsCache = new Map<DefinitionKind, Promise<DefinitionWinner[]>>();
  private treeCache: MergedTree | null = null;
  private statsCache: MountStats | null = null;
  /** Per shadowed path number, the frozen rows its winner hides, made on first use. */
  private readonly shadowedLists = new Map<number, readonly Provider[]>();
  /** By path number, the winner's row once asked for: a repeated lookup is one array read. */
  private winnerRows: (Provider | undefined)[] | null = null;
  /** Soft problems met while answering (an unreadable definition file, ...), for the CLI to print. */
  readonly warnings: string[] = [];
  /**
   * Candidate archives ignored because the disk could not read them (not because of their bytes): the
   * mount goes on without them, but a whole copy of the install (flatten) would silently miss their files.
   */
  readonly unreadable: { archive: string; error: NodeJS.ErrnoException }[] = [];

  constructor(
    readonly root: string,
    readonly choice: GameChoice,
    readonly discDir: string | null,
    readonly plan: MountPlan,
    readonly index: MergedIndex,
    /** Set when mounted with a hypothetical extra archive: where it landed (see MountOptions.extra). */
    readonly placement: Placement | null = null,
  ) {}

  get game(): GameId {
    return this.choice.game;
  }

  get layers(): readonly Layer[] {
    return this.index.layers;
  }

  report(): MountReport {
    const byArchive = new Map(this.layers.filter((l) => l.archive !== null).map((l) => [`${l.root}\0${l.archive}`, l]));
    return {
      game: this.game,
      gameSource: this.choice.source,
      ...(this.choice.reason ? { gameReason: this.choice.reason } : {}),
      mounted: this.plan.mounted.map((p) => ({
        archive: p.archive,
        root: p.root,
        stage: p.stage,
        files: byArchive.get(`${p.root}\0${p.archive}`)?.entries.filter((e) => !e.dir).length ?? 0,
      })),
      ignored: this.plan.ignored.map((i) => ({ ...i })),
    };
  }

  /**
   * The Provider of a hit, made once per hit and frozen: lookups are the hot path (100,000 resolves must
   * take milliseconds), and sharing immutable rows costs nothing.
   */
  provider(hit: Hit): Provider {
    return (hit.row ??= Object.freeze({
      archive: this.index.layers[hit.layer]!.archive,
      entry: hit.entry.path,
      size: hit.entry.size,
      method: hit.entry.method,
    }));
  }

  resolve(path: string): ResolveResult {
    // A canonical ASCII query (what the studio sends) is its own path to report and upper-cases natively.
    const canonical = isCanonicalAscii(path);
    const index = this.index;
    const n = index.numberOf(canonical ? path.toUpperCase() : pathKey(path));
    const shown = canonical ? path : normalizeArchivePath(path);
    if (n < 0) return { path: shown, winner: null, shadowed: NOTHING_SHADOWED };
    return {
      path: shown,
      winner: ((this.winnerRows ??= new Array<Provider | undefined>(index.numberLimit))[n] ??= this.provider(index.winnerOf(n))),
      shadowed: index.isShadowed(n) ? this.shadowedOf(n, index.hitsOf(n)) : NOTHING_SHADOWED,
    };
  }

  private shadowedOf(n: number, hits: readonly Hit[]): readonly Provider[] {
    let rows = this.shadowedLists.get(n);
    if (!rows) this.shadowedLists.set(n, (rows = Object.freeze(hits.slice(1).map((h) => this.provider(h)))));
    return rows;
  }

  /** Counted once per mount (the studio asks at every open). */
  stats(): MountStats {
    return { ...(this.statsCache ??= this.countStats()) };
  }

  private countStats(): MountStats {
    let shadowedPaths = 0;
    let bytes = 0;
    const index = this.index;
    const numbers = index.numbers();
    for (let i = 0; i < numbers.length; i++) {
      const n = numbers[i]!;
      if (index.isShadowed(n)) shadowedPaths++;
      bytes += index.winnerEntryOf(n).size;
    }
    const loose = this.layers.find((l) => l.archive === null);
    return {
      game: this.game,
      archives: this.plan.mounted.length,
      ignored: this.plan.ignored.length,
      paths: this.index.size,
      entries: this.index.entries,
      looseFiles: loose ? loose.entries.filter((e) => !e.dir).length : 0,
      shadowedPaths,
      bytes,
    };
  }

  /** The winning path of every key, sorted by key, as parallel arrays (built once per mount; do not mutate). */
  tree(): MergedTree {
    return (this.treeCache ??= this.buildTree());
  }

  private buildTree(): MergedTree {
    const layerToArchive = new Map<number, number>();
    const archives: string[] = [];
    this.layers.forEach((l, i) => {
      if (l.archive === null) return;
      layerToArchive.set(i, archives.length);
      archives.push(l.archive);
    });
    const numbers = this.index.sorted();
    const count = numbers.length;
    const tree: MergedTree = {
      paths: new Array(count),
      winners: new Array(count),
      sizes: new Array(count),
      layers: new Array(count),
      archives,
    };
    for (let i = 0; i < count; i++) {
      const n = numbers[i]!;
      const entry = this.index.winnerEntryOf(n);
      tree.paths[i] = entry.path;
      tree.winners[i] = layerToArchive.get(this.index.winnerLayerOf(n)) ?? -1;
      tree.sizes[i] = entry.size;
      tree.layers[i] = this.index.countOf(n);
    }
    return tree;
  }

  /**
   * A path's bytes: the winner's, or those of a given provider (`archive` null = the loose file; a string
   * = that archive, install root first). Throws FormatError('not-found') when there is no such provider.
   */
  async read(path: string, archive?: string | null): Promise<Uint8Array> {
    const hits = this.index.lookup(path);
    if (!hits) fail('not-found', `no file ${path} in the install`);
    const hit = archive === undefined ? hits[0]! : hits.find((h) => this.layers[h.layer]!.archive === archive);
    if (!hit) fail('not-found', `${archive === null ? 'no loose file' : `${archive} has no file`} ${path}`);
    return this.layers[hit.layer]!.read(hit.entry);
  }

  /** Definition winners of one kind (TA's rules), computed once per mount. */
  defs(kind: DefinitionKind): Promise<DefinitionWinner[]> {
    let cached = this.defsCache.get(kind);
    if (!cached) {
      cached = collectDefinitions(this, kind);
      this.defsCache.set(kind, cached);
      cached.catch(() => this.defsCache.delete(kind));
    }
    return cached;
  }

  /** Paths and definition names that more than one source provides (loose files count as one source). */
  async conflicts(): Promise<ConflictReport> {
    const paths: ConflictReport['paths'] = [];
    for (const [, hits] of this.index.all()) {
      if (hits.length < 2) continue;
      const first = hits[0]!.layer;
      if (hits.every((h) => h.layer === first)) continue;
      paths.push({ path: hits[0]!.entry.path, providers: hits.map((h) => this.provider(h)) });
    }
    paths.sort((a, b) => {
      const ka = pathKey(a.path);
      const kb = pathKey(b.path);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
    return { paths, definitions: await definitionConflicts(this) };
  }

  async close(): Promise<void> {
    await Promise.all(this.layers.map((l) => l.close()));
  }
}
