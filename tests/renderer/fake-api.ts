import type { CallName, EventName, Events, HostConnection, RequestOf, ResponseOf, StudioApi } from '../../shared/contract';
import type { DefinitionKind, DefinitionWinner, MergedTree, Provider } from '../../shared/vfs-types';
import { ApiError } from '../../renderer/api';
import { encodePcx8, encodeWav, testPalette } from './pcx-fixture';
import { assetDecoderFor } from '../../shared/assets/registry';
import { encodeAssetView } from '../../shared/assets/wire';

/**
 * A fake StudioApi for component and store tests: a small TA install held in memory and answered with
 * contract-typed data, the way `modpak serve` would. Calls are recorded; any call can be made to fail or
 * to wait; long jobs emit progress events and honour jobs.cancel.
 */

export const DEMO_ROOT = '/games/TotalA';

const ARMCOM_FBI = `[UNITINFO]
{
\tUnitName=ARMCOM;
\tName=Commander;
\t// the mod raises this
\tMaxDamage=5000;
\tBuildCostEnergy=0;
}
`;

export interface FakeProvider extends Provider {
  bytes: Uint8Array;
}

function text(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return btoa(s);
}

/** A 4 × 2 PCX: top row red, green, grey 3, grey 4; bottom row all index 200. */
export function demoPcx(): Uint8Array {
  const pixels = new Uint8Array([1, 2, 3, 4, 200, 200, 200, 200]);
  return encodePcx8(4, 2, pixels, testPalette());
}

/** path → providers, winner first. */
export function demoFiles(): Map<string, FakeProvider[]> {
  const files = new Map<string, FakeProvider[]>();
  const add = (path: string, ...providers: Omit<FakeProvider, 'entry'>[]) =>
    files.set(
      path,
      providers.map((p) => ({ ...p, entry: path })),
    );
  const modded = text(ARMCOM_FBI.replace('5000', '9000'));
  add(
    'units/ARMCOM.FBI',
    { archive: 'mymod.ufo', size: modded.length, method: 'lz77', bytes: modded },
    { archive: 'totala1.hpi', size: ARMCOM_FBI.length, method: 'zlib', bytes: text(ARMCOM_FBI) },
  );
  add('units/CORCOM.FBI', { archive: 'totala1.hpi', size: 40, method: 'zlib', bytes: text('[UNITINFO]\n{\n\tUnitName=CORCOM;\n}\n') });
  add('unitpics/ARMCOM.PCX', { archive: 'totala1.hpi', size: demoPcx().length, method: 'lz77', bytes: demoPcx() });
  add('sounds/boom.wav', { archive: 'totala2.hpi', size: 1044, method: 'stored', bytes: encodeWav(500) });
  add('anims/logo.gaf', { archive: 'totala1.hpi', size: 6, method: 'stored', bytes: new Uint8Array([0x00, 0x01, 0x01, 0x00, 0x41, 0x42]) });
  add('readme.txt', { archive: null, size: 12, method: 'loose', bytes: text('Hello, TA!\r\n') });
  return files;
}

export interface FakeApiOptions {
  /** Extra generated paths in the tree (to exercise virtualisation and filtering). */
  extraPaths?: number;
  initialRoot?: string | null;
  pickFolder?: boolean;
  /** The desktop app's capabilities (reveal, open folder, drag out). */
  desktop?: boolean;
}

export interface RecordedCall {
  name: CallName;
  request: unknown;
}

type Handler<K extends CallName> = (request: RequestOf<K>) => Promise<ResponseOf<K>> | ResponseOf<K>;

export class FakeStudioApi implements StudioApi {
  readonly calls: RecordedCall[] = [];
  readonly files: Map<string, FakeProvider[]>;
  readonly extraPaths: string[] = [];
  private readonly listeners = new Map<string, Set<(payload: never) => void>>();
  private readonly failures = new Map<CallName, { code: 'failed' | 'not-found' | 'bad-request'; message: string }>();
  private readonly gates = new Map<CallName, Promise<void>>();
  private readonly cancelled = new Set<string>();
  readonly options: Required<FakeApiOptions>;

  constructor(options: FakeApiOptions = {}) {
    this.options = { extraPaths: 0, initialRoot: DEMO_ROOT, pickFolder: false, desktop: false, ...options };
    this.files = demoFiles();
    for (let i = 0; i < this.options.extraPaths; i++) this.extraPaths.push(`maps/set${Math.floor(i / 1000)}/map${i}.ota`);
  }

  /** Make every later call of `name` fail with the contract error. */
  fail(name: CallName, message: string, code: 'failed' | 'not-found' | 'bad-request' = 'failed'): void {
    this.failures.set(name, { code, message });
  }

  /** Hold calls of `name` until the returned function is called. */
  hold(name: CallName): () => void {
    let release!: () => void;
    this.gates.set(name, new Promise<void>((r) => (release = r)));
    return () => {
      this.gates.delete(name);
      release();
    };
  }

  callsOf(name: CallName): unknown[] {
    return this.calls.filter((c) => c.name === name).map((c) => c.request);
  }

  private readonly connectionListeners = new Set<(c: HostConnection) => void>();

  /** The transport's connection going or coming back (the event stream closing, reopening). */
  setConnection(connection: HostConnection): void {
    for (const l of this.connectionListeners) l(connection);
  }

  onConnection(listener: (c: HostConnection) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  emit<E extends EventName>(event: E, payload: Events[E]): void {
    for (const l of this.listeners.get(event) ?? []) (l as (p: Events[E]) => void)(payload);
  }

  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener as (payload: never) => void);
    this.listeners.set(event, set);
    return () => set.delete(listener as (payload: never) => void);
  }

  async call<K extends CallName>(name: K, request: RequestOf<K>): Promise<ResponseOf<K>> {
    // Requests must be plain data, as they would be after structured clone or JSON.
    this.calls.push({ name, request: JSON.parse(JSON.stringify(request)) });
    const gate = this.gates.get(name);
    if (gate) await gate;
    const failure = this.failures.get(name);
    if (failure) throw new ApiError(failure);
    const handler = (this.handlers as Record<string, Handler<K> | undefined>)[name];
    if (!handler) throw new ApiError({ code: 'failed', message: `fake api: ${name} is not implemented` });
    return handler(request);
  }

  private tree(): MergedTree {
    const archives = ['mymod.ufo', 'totala1.hpi', 'totala2.hpi'];
    const tree: MergedTree = { paths: [], winners: [], sizes: [], layers: [], archives };
    for (const [path, providers] of this.files) {
      tree.paths.push(path);
      const winner = providers[0]!;
      tree.winners.push(winner.archive === null ? -1 : archives.indexOf(winner.archive));
      tree.sizes.push(winner.size);
      tree.layers.push(providers.length);
    }
    for (const path of this.extraPaths) {
      tree.paths.push(path);
      tree.winners.push(2);
      tree.sizes.push(100);
      tree.layers.push(1);
    }
    return tree;
  }

  private defs(kind: DefinitionKind): DefinitionWinner[] {
    if (kind === 'units') {
      return [
        {
          name: 'ARMCOM',
          file: 'units/ARMCOM.FBI',
          archive: 'mymod.ufo',
          shadowed: [{ file: 'units/ARMCOM.FBI', archive: 'totala1.hpi', hiddenBy: 'path' }],
        },
        { name: 'CORCOM', file: 'units/CORCOM.FBI', archive: 'totala1.hpi', shadowed: [] },
      ];
    }
    if (kind === 'weapons') return [{ name: 'ARM_LASER', file: 'weapons/weapons.tdf', archive: 'totala1.hpi', shadowed: [] }];
    return [{ name: 'ROCK1', file: 'features/rocks.tdf', archive: 'totala2.hpi', shadowed: [] }];
  }

  /** A long job: progress events in steps, stopping with a 'cancelled' error when jobs.cancel names it. */
  private async job(jobId: string | undefined, total: number): Promise<void> {
    for (let done = 0; done <= total; done++) {
      if (jobId && this.cancelled.has(jobId)) throw new ApiError({ code: 'cancelled', message: 'cancelled' });
      if (jobId) this.emit('progress', { jobId, done, total, label: `file ${done} of ${total}` });
      await new Promise((r) => setTimeout(r, 0));
    }
  }

  private find(path: string): FakeProvider[] | undefined {
    for (const [p, providers] of this.files) if (p.toLowerCase() === path.toLowerCase()) return providers;
    return undefined;
  }

  readonly handlers: { [K in CallName]?: Handler<K> } = {
    'app.info': () => ({
      version: '0.1.0',
      host: 'web',
      initialRoot: this.options.initialRoot,
      demo: true,
      cli: '/opt/modpak/bin/modpak',
      capabilities: { pickFolder: this.options.pickFolder, pickFile: this.options.pickFolder, desktop: this.options.desktop },
    }),
    'install.recent': () => [DEMO_ROOT, '/games/Kingdoms'],
    'install.modFolders': () => ({ game: null, base: null, folders: [] }),
    'install.open': ({ root }) => {
      if (root !== DEMO_ROOT)
        throw new ApiError({ code: 'not-found', message: `${root}: no game install found (no .hpi, .ufo or .pak files)` });
      return {
        root,
        game: 'ta',
        gameSource: 'detected',
        gameReason: 'found totala1.hpi',
        mounted: [
          { archive: 'mymod.ufo', root: 'install', stage: 'ufo', files: 1 },
          { archive: 'totala2.hpi', root: 'install', stage: 'hpi', files: 1 + this.extraPaths.length },
          { archive: 'totala1.hpi', root: 'install', stage: 'hpi', files: 5 },
        ],
        ignored: [
          { archive: 'backup/old.ufo', reason: 'not in the install folder itself (TA only mounts the top level)' },
          { archive: 'broken.hpi', reason: 'not a valid HPI: bad marker 0x00000000 at byte 0' },
        ],
        stats: {
          game: 'ta',
          archives: 3,
          ignored: 2,
          paths: this.files.size + this.extraPaths.length,
          entries: 7 + this.extraPaths.length,
          looseFiles: 1,
          shadowedPaths: 1,
          bytes: 4096,
        },
      };
    },
    'install.tree': () => this.tree(),
    'install.resolve': ({ path }) => {
      const providers = this.find(path);
      if (!providers) return { path, winner: null, shadowed: [] };
      const strip = ({ bytes: _bytes, ...p }: FakeProvider): Provider => p;
      return { path, winner: strip(providers[0]!), shadowed: providers.slice(1).map(strip) };
    },
    'install.read': ({ path, archive, maxBytes }) => {
      const providers = this.find(path);
      if (!providers) throw new ApiError({ code: 'not-found', message: `${path}: no such file in the install` });
      const provider = archive === undefined ? providers[0] : providers.find((p) => p.archive === archive);
      if (!provider) throw new ApiError({ code: 'not-found', message: `${path}: ${archive ?? 'no loose file'} does not provide it` });
      const bytes = provider.bytes;
      const limit = maxBytes ?? 1 << 20;
      return {
        path,
        size: bytes.length,
        data: base64(bytes.subarray(0, limit)),
        truncated: bytes.length > limit,
        archive: provider.archive,
      };
    },
    'install.defs': ({ kind }) => this.defs(kind),
    'install.extract': async ({ paths, jobId }) => {
      await this.job(jobId, paths.length);
      return { files: paths.length, bytes: paths.length * 100, refused: [] };
    },
    'jobs.cancel': ({ jobId }) => {
      this.cancelled.add(jobId);
      return { cancelled: true };
    },
    'dialog.pickFolder': () => '/tmp/picked',
    // A home with two folders, and the install holding its archives (as the host's folders.list answers).
    'folders.list': ({ path, files }) => {
      const places = [
        { label: 'Home', path: '/home/me' },
        { label: 'Downloads', path: '/home/me/Downloads' },
        { label: 'Install: TotalA', path: DEMO_ROOT },
      ];
      const tree: Record<string, string[]> = {
        '/home/me': ['Downloads', 'mods'],
        '/home/me/mods': ['mymod'],
        '/home/me/mods/mymod': [],
        '/home/me/Downloads': [],
        [DEMO_ROOT]: [],
      };
      if (path === undefined) return { path: null, parent: null, folders: [], files: [], places };
      const names = tree[path];
      if (!names) throw new ApiError({ code: 'not-allowed', message: `${path}: outside your home folder and the opened installs` });
      const parent = path.slice(0, path.lastIndexOf('/'));
      return {
        path,
        parent: tree[parent] ? parent : null,
        folders: names.map((name) => ({ name, path: `${path}/${name}` })),
        files:
          files && path === DEMO_ROOT
            ? ['totala1.hpi', 'totala2.hpi'].map((name) => ({ name, path: `${DEMO_ROOT}/${name}`, size: 1000 }))
            : [],
        places,
      };
    },
    'extract.defaultTarget': ({ from, name }) => ({
      target: `/home/me/Downloads/${
        name ??
        from
          .split('/')
          .pop()!
          .replace(/\.[^.]*$/, '')
      }`,
      exists: false,
    }),
    'shell.reveal': ({ path }) => ({ shown: path }),
    'workspace.addFiles': ({ files }) => ({ added: files.map((f) => f.path) }),
    'workspace.open': ({ dir, root }) => ({ dir, root, files: [] }),
    'workspace.files': () => [],
    'dialog.pickFile': () => '/games/TotalA/totala1.hpi',
    'archive.open': ({ path }) => {
      if (!path.endsWith('.hpi'))
        throw new ApiError({ code: 'failed', message: `${path}: not a recognised archive (first bytes 50 4b 03 04)` });
      return {
        path,
        info: {
          format: 'hpi',
          version: 1,
          files: 3,
          dirs: 1,
          bytes: 300,
          key: 0x7d,
          trailer: null,
          bytesAfterTrailer: 5,
          directoryReadsPlain: null,
          taMount: { ok: false, reason: '5 bytes follow the Cavedog trailer' },
          alsoMatches: [],
          warnings: ['HeaderKey 0xFF: the directory reads unenciphered'],
        },
        entries: [
          { path: 'units', size: 0, packedSize: 0, method: 'dir', dir: true },
          { path: 'units/ARMCOM.FBI', size: 100, packedSize: 60, method: 'zlib' },
          { path: 'unitpics/ARMCOM.PCX', size: demoPcx().length, packedSize: 90, method: 'lz77' },
          { path: 'anims/logo.gaf', size: 6, packedSize: 6, method: 'stored' },
        ],
      };
    },
    'archive.read': ({ entry }) => {
      const bytes = entry.endsWith('.PCX') ? demoPcx() : text(ARMCOM_FBI);
      return { path: entry, size: bytes.length, data: base64(bytes), truncated: false, archive: null };
    },
    // Decoded by the real shared decoders, as the host does; the fake install lends no palette.
    'asset.view': async ({ root, path, archive, file, entry }) => {
      const name = (root !== undefined ? path : entry) ?? '';
      const bytes =
        root !== undefined
          ? (this.find(name)?.find((p) => archive === undefined || p.archive === archive) ?? this.find(name)?.[0])?.bytes
          : entry?.endsWith('.PCX')
            ? demoPcx()
            : undefined;
      if (!bytes) throw new ApiError({ code: 'not-found', message: `${name}: no such file` });
      const decoder = assetDecoderFor(name, bytes.subarray(0, 64));
      const context = {
        palette: () => Promise.reject(new Error('no palette in the fake install')),
        readFile: async () => null,
        list: async () => [],
      };
      const view = decoder ? encodeAssetView(await decoder.view(name, bytes, context)) : null;
      return {
        name: name.slice(name.lastIndexOf('/') + 1),
        origin: root !== undefined ? `${name} from ${archive ?? 'the winner'}` : `${entry} in ${file}`,
        size: bytes.length,
        decoder: decoder?.id ?? null,
        view,
      };
    },
    'archive.extract': async ({ jobId }) => {
      await this.job(jobId, 3);
      return { files: 3, bytes: 300, refused: [] };
    },
    'archive.verify': async ({ jobId }) => {
      await this.job(jobId, 3);
      // As the host answers: `files` counts the files that checked out (3 in the archive, 1 damaged).
      return { ok: false, files: 2, bytes: 200, errors: [{ path: 'anims/logo.gaf', message: 'checksum 0x1234 != 0x4321' }], warnings: [] };
    },
  };
}
