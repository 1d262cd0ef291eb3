import type { ByteSource } from '../../io/byte-source.js';
import type { Archive, ArchiveEntry, ArchiveInfo } from '../archive.js';
import { fail } from '../../../shared/errors.js';
import { pathKey } from '../../../shared/paths.js';
import { wadLumpKind } from '../../../shared/assets/quake/wad-types.js';
import { readWadDirectory, type WadDirectory, type WadRecord } from './layout.js';

/**
 * A WAD2 or WAD3 read through the one Archive interface: entries are the lumps in stored order, each path
 * its lump name, each `entryType` its type's name. Opening reads the header and the directory only.
 */
class WadArchive implements Archive {
  readonly format = 'wad' as const;
  readonly entries: readonly ArchiveEntry[];
  readonly warnings: readonly string[];
  private readonly records = new Map<ArchiveEntry, WadRecord>();

  constructor(
    readonly source: ByteSource,
    private readonly directory: WadDirectory,
  ) {
    this.entries = directory.records.map((r) => {
      const entry: ArchiveEntry = {
        path: r.name,
        dir: false,
        size: r.compression === 0 ? r.diskSize : r.size,
        packedSize: r.diskSize,
        method: r.compression === 0 ? 'stored' : r.compression === 1 ? 'lzss' : `compression ${r.compression}`,
        entryType: wadLumpKind(directory.version, r.type),
      };
      this.records.set(entry, r);
      return entry;
    });
    this.warnings = [...directory.warnings, ...duplicateWarnings(directory.records)];
  }

  get version() {
    return this.directory.version;
  }

  info(): ArchiveInfo {
    const kinds: Record<string, number> = {};
    let bytes = 0;
    for (const e of this.entries) {
      kinds[e.entryType!] = (kinds[e.entryType!] ?? 0) + 1;
      bytes += e.size;
    }
    return { format: 'wad', files: this.entries.length, dirs: 0, bytes, version: `WAD${this.directory.version}`, lumpTypes: kinds };
  }

  async read(entry: ArchiveEntry): Promise<Uint8Array> {
    const record = this.records.get(entry);
    if (!record) fail('not-found', `${entry.path} is not a lump of this WAD`);
    if (record.compression !== 0) fail('unsupported', `${entry.method} compressed lumps are not supported (no known tool writes them)`);
    return this.source.read(record.offset, record.diskSize);
  }

  async close(): Promise<void> {
    await this.source.close();
  }
}

/** Quake and Half-Life look lumps up case-insensitively and take the first match. */
function duplicateWarnings(records: readonly WadRecord[]): string[] {
  const seen = new Map<string, string>();
  const warnings: string[] = [];
  for (const r of records) {
    const first = seen.get(pathKey(r.name));
    if (first !== undefined) warnings.push(`${r.name} has the same name as ${first} (lookups are case-insensitive): the first stored wins`);
    else seen.set(pathKey(r.name), r.name);
  }
  return warnings;
}

export async function openWad(source: ByteSource): Promise<Archive> {
  return new WadArchive(source, await readWadDirectory(source));
}

/** The WAD version of an archive the wad engine opened, else null. */
export function wadVersionOf(archive: Archive): 2 | 3 | null {
  return archive instanceof WadArchive ? archive.version : null;
}
