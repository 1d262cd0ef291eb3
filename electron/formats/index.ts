import { FileSource, type ByteSource } from '../io/byte-source.js';
import { FormatError, fail } from '../../shared/errors.js';
import type { Archive, FormatEngine, FormatId, PackFormatId, PackOptions, UserPackOption } from './archive.js';
import { formatEngines } from './registry.js';

export type {
  Archive,
  ArchiveEntry,
  ArchiveInfo,
  FormatEngine,
  FormatId,
  PackFormatId,
  PackFile,
  PackOptions,
  UserPackOption,
} from './archive.js';

/**
 * Recognise a file from its bytes. Every engine validates its own layout; several may match ('PACK' is
 * shared by Quake, SiN and Daikatana), in which case the most confident wins (then registry order) and the
 * others are reported as `alternatives`.
 */
export async function detectFormat(source: ByteSource): Promise<{ engine: FormatEngine; alternatives: FormatId[]; note?: string }> {
  const matches: { engine: FormatEngine; note?: string; confidence: number }[] = [];
  for (const engine of formatEngines) {
    let result;
    try {
      result = await engine.detect(source);
    } catch (err) {
      if (err instanceof FormatError) continue;
      throw err;
    }
    if (result.match) matches.push({ engine, note: result.note, confidence: result.confidence ?? 0 });
  }
  if (matches.length === 0) fail('unknown-format', 'not a recognised archive (HPI, PAK, SiN, Daikatana, Pangya or WAD)');
  // Array.prototype.sort is stable: equal confidence keeps registry order.
  matches.sort((a, b) => b.confidence - a.confidence);
  const [first, ...rest] = matches;
  return { engine: first!.engine, alternatives: rest.map((m) => m.engine.id), note: first!.note };
}

export async function openArchiveSource(source: ByteSource): Promise<Archive> {
  const { engine } = await detectFormat(source);
  return engine.open(source);
}

/** Run `fn` on the archive at `path`, closing it afterwards whatever happens. */
export async function withArchive<T>(path: string, fn: (archive: Archive) => Promise<T>): Promise<T> {
  const archive = await openArchive(path);
  try {
    return await fn(archive);
  } finally {
    await archive.close();
  }
}

/** Open an archive file read-only, recognising its format from its bytes. */
export async function openArchive(path: string): Promise<Archive> {
  const source = await FileSource.open(path);
  try {
    return await openArchiveSource(source);
  } catch (err) {
    await source.close();
    throw err;
  }
}

export function engineFor(id: FormatId): FormatEngine {
  const engine = formatEngines.find((e) => e.id === id);
  if (!engine) throw new Error(`no engine for format ${id}`);
  return engine;
}

/** Map `pack --format` (or a target's extension) to an engine and the options it implies. */
export function packFormatFor(format: PackFormatId): { engine: FormatEngine; options: Partial<PackOptions> } {
  if (format === 'hpi2') return { engine: engineFor('hpi'), options: { version: 2 } };
  if (format === 'hpi') return { engine: engineFor('hpi'), options: { version: 1 } };
  if (format === 'wad2' || format === 'wad3') return { engine: engineFor('wad'), options: { wadVersion: format === 'wad2' ? 2 : 3 } };
  return { engine: engineFor(format), options: {} };
}

/**
 * The options in `given` that the format's writer does not take (a `--key` for a PAK, a `--cipher` for an
 * HPI). `trailer` counts only when turned off: on is every writer's default.
 */
export function foreignPackOptions(format: PackFormatId, given: Partial<Pick<PackOptions, UserPackOption>>): UserPackOption[] {
  const { engine, options } = packFormatFor(format);
  const takes = new Set(engine.packOptions?.(options) ?? []);
  const user: readonly UserPackOption[] = ['method', 'key', 'trailer', 'cipher', 'region'];
  const set = user.filter((k) => (k === 'trailer' ? given.trailer === false : given[k] !== undefined));
  return set.filter((k) => !takes.has(k));
}

/** What a format is called where a user reads it ("HPI v2", "Quake PAK"). */
export function packFormatLabel(format: PackFormatId): string {
  if (format === 'hpi2') return 'HPI v2';
  if (format === 'hpi') return 'HPI v1';
  return packFormatFor(format).engine.label;
}

export function packFormatFromExtension(target: string): PackFormatId | null {
  const ext = target.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  if (ext === 'hpi' || ext === 'ufo' || ext === 'ccx' || ext === 'gp3') return 'hpi';
  if (ext === 'pak') return 'pak';
  return null;
}
