import { describe, expect, it } from 'vitest';
import { MemorySource, type ByteSource } from '../../../../electron/io/byte-source.js';
import { FormatError } from '../../../../shared/errors.js';
import { detectFormat } from '../../../../electron/formats/index.js';
import { pangyaEngine } from '../../../../electron/formats/pangya/index.js';
import { KIND_DIR, KIND_STORED, encodeEntry, encodeTrailer, type PlainEntry } from '../../../../electron/formats/pangya/layout.js';
import { REGION_KEYS, REGIONS } from '../../../../electron/formats/pangya/regions.js';
import { decodeName, encodeName, hasControlBytes, trimNamePadding } from '../../../../electron/formats/pangya/names.js';
import { normalizeArchivePath } from '../../../../shared/paths.js';
import { xteaDecipher, xteaEncipher } from '../../../../electron/formats/pangya/xtea.js';
import type { PangyaEntry } from '../../../../electron/formats/pangya/table.js';
import { withAllocationLimit } from '../../../helpers/fuzz.js';
import { buildArchive, fixtureFiles } from './fixtures.js';

const ascii = (s: string) => new TextEncoder().encode(s);

async function openError(bytes: Uint8Array): Promise<FormatError> {
  const err = await pangyaEngine.open(new MemorySource(bytes)).catch((e: unknown) => e);
  if (!(err instanceof FormatError)) throw new Error(`expected a FormatError, got ${String(err)}`);
  return err;
}

function setU32(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(at, value, true);
  return copy;
}

/** A ByteSource that records every read, to prove the reader is lazy. */
class CountingSource implements ByteSource {
  reads: [number, number][] = [];
  constructor(private readonly inner: MemorySource) {}
  get name() {
    return this.inner.name;
  }
  get size() {
    return this.inner.size;
  }
  async read(offset: number, length: number) {
    this.reads.push([offset, length]);
    return this.inner.read(offset, length);
  }
  async close() {}
}

/** An archive from hand-made entries: `data` first, then the table and trailer. */
function handMade(entries: PlainEntry[], cipher: 'xor' | 'xtea', data = new Uint8Array(0), key = REGION_KEYS.us): Uint8Array {
  const parts = [
    data,
    ...entries.map((e) => encodeEntry(e, cipher, cipher === 'xtea' ? key : null)),
    encodeTrailer(data.length, entries.length),
  ];
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}

describe('Pangya reader: trailer and table discipline', () => {
  it('refuses a file shorter than the trailer, and a wrong signature', async () => {
    expect((await openError(Uint8Array.of(1, 2, 3))).code).toBe('truncated');
    const good = await buildArchive({ cipher: 'xor' });
    const bad = good.slice();
    bad[bad.length - 1] = 0x13;
    const err = await openError(bad);
    expect(err.code).toBe('bad-magic');
    expect(err.message).toBe('Pangya trailer signature is 0x13, expected 0x12');
    expect(await pangyaEngine.detect(new MemorySource(bad))).toEqual({ match: false });
  });

  it('bounds the entry count by the table size before allocating anything', async () => {
    const good = await buildArchive({ cipher: 'xtea' });
    const lying = setU32(good, good.length - 5, 0xffffffff);
    const err = await withAllocationLimit(1 << 20, () => openError(lying));
    expect(err.code).toBe('bad-count');
    expect(err.message).toMatch(/^Pangya table declares 4294967295 entries, but its \d+ bytes hold at most \d+$/);
  });

  it('refuses a table offset past the trailer', async () => {
    const good = await buildArchive({ cipher: 'xor' });
    const err = await openError(setU32(good, good.length - 9, good.length));
    expect(err.code).toBe('out-of-bounds');
    expect(err.message).toBe(`Pangya table offset ${good.length} is past the trailer at ${good.length - 9}`);
  });

  it('refuses a table whose entries overflow it, an unknown type, and an XTEA name not in whole blocks', async () => {
    const good = await buildArchive({ cipher: 'xor' });
    const table = new DataView(good.buffer).getUint32(good.length - 9, true);
    // Entry count one higher than there are entries: the walk runs into the trailer.
    const count = new DataView(good.buffer).getUint32(good.length - 5, true);
    expect((await openError(setU32(good, good.length - 5, count + 1))).message).toMatch(/^Pangya entry \d+ at \d+ overflows the table/);
    const unknown = good.slice();
    unknown[table + 1] = 0x35;
    expect((await openError(unknown)).message).toBe(`Pangya entry 0 at ${table} has unknown type 0x35`);
    const xtea = handMade([{ kind: KIND_DIR, offset: 0, packedSize: 0, realSize: 0, name: ascii('folder') }], 'xtea');
    xtea[0] = 12;
    expect((await openError(xtea)).message).toBe('Pangya XTEA entry 0 at 0 has a name of 12 bytes, not whole 8-byte blocks');
  });

  it('reads 0x1X types as XOR entries (a `type < 4` test would take them for XTEA)', async () => {
    const bytes = handMade([{ kind: KIND_STORED, offset: 0, packedSize: 3, realSize: 3, name: ascii('a.txt') }], 'xor', ascii('abc'));
    bytes[3 + 1] = 0x10;
    const archive = await pangyaEngine.open(new MemorySource(bytes));
    expect(archive.info()).toMatchObject({ cipher: 'xor', files: 1 });
    expect(new TextDecoder().decode(await archive.read(archive.entries[0]!))).toBe('abc');
  });

  it('is lazy: open reads the trailer and the table only, read(entry) reads that entry only', async () => {
    const bytes = await buildArchive({ cipher: 'xtea', region: 'kr' });
    const source = new CountingSource(new MemorySource(bytes));
    const archive = await pangyaEngine.open(source);
    const info = archive.info();
    const tableOffset = info.format === 'pangya' ? info.tableOffset : -1;
    expect(source.reads).toEqual([
      [bytes.length - 9, 9],
      [tableOffset, bytes.length - 9 - tableOffset],
    ]);
    source.reads = [];
    const entry = archive.entries.find((e) => e.path === 'data/sub/runs.bin') as PangyaEntry;
    await archive.read(entry);
    expect(source.reads).toEqual([[entry.offset, entry.packedSize]]);
  });

  it('opening what detection recognised takes its walk: the trailer and the table are read once', async () => {
    const bytes = await buildArchive({ cipher: 'xtea', region: 'th' });
    const trailerAt = bytes.length - 9;
    const tableAt = new DataView(bytes.buffer, bytes.byteOffset, bytes.length).getUint32(trailerAt, true);
    const source = new CountingSource(new MemorySource(bytes));
    const readsAt = (at: number) => source.reads.filter(([offset]) => offset === at).length;
    const { engine } = await detectFormat(source);
    const archive = await engine.open(source);
    expect(archive.info()).toMatchObject({ format: 'pangya', cipher: 'xtea', region: 'th', files: 6 });
    expect([readsAt(trailerAt), readsAt(tableAt)]).toEqual([1, 1]);
    // The walk is taken, not kept: opening the source again reads the table again, to the same entries.
    const again = await engine.open(source);
    expect([readsAt(trailerAt), readsAt(tableAt)]).toEqual([2, 2]);
    expect(again.entries).toEqual(archive.entries);
  });

  it('keeps the stored order, with each folder before its first file', async () => {
    const archive = await pangyaEngine.open(new MemorySource(await buildArchive({ cipher: 'xor' })));
    expect(archive.entries.map((e) => (e.dir ? `${e.path}/` : e.path))).toEqual([
      'data/',
      'data/readme.txt',
      'data/한글 이름.txt',
      'data/sub/',
      'data/sub/noise.bin',
      'data/sub/runs.bin',
      'data/sub/empty.dat',
      'top.ini',
    ]);
  });

  it('lists every name under the path normalizeArchivePath makes of it, however its separators run', async () => {
    // Most names are ASCII with single separators, and are listed without the general rule: the others
    // (leading, trailing, doubled, mixed separators, non-ASCII) must come out as that rule has them.
    const names = ['a\\b.txt', 'a/b\\c', '\\lead', '/lead', 'trail\\', 'a\\\\b', 'a\\/b', 'a//b/', ' sp ace\\x', '한\\\\글'];
    const entries = names.map((name): PlainEntry => ({ kind: KIND_DIR, offset: 0, packedSize: 0, realSize: 0, name: encodeName(name) }));
    for (const cipher of ['xor', 'xtea'] as const) {
      const archive = await pangyaEngine.open(new MemorySource(handMade(entries, cipher)));
      expect(archive.entries.map((e) => (e as PangyaEntry).name)).toEqual(names);
      expect(archive.entries.map((e) => e.path)).toEqual(names.map(normalizeArchivePath));
      expect(archive.entries.map((e) => e.path)).toEqual([
        'a/b.txt',
        'a/b/c',
        'lead',
        'lead',
        'trail',
        'a/b',
        'a/b',
        'a/b',
        ' sp ace/x',
        '한/글',
      ]);
    }
  });

  it('an entry whose data lies outside the data area: listed with a warning, refused when read', async () => {
    const bytes = handMade(
      [
        { kind: KIND_STORED, offset: 0, packedSize: 3, realSize: 3, name: ascii('ok.txt') },
        { kind: KIND_STORED, offset: 2, packedSize: 3000, realSize: 3000, name: ascii('far.txt') },
      ],
      'xor',
      ascii('abc'),
    );
    const archive = await pangyaEngine.open(new MemorySource(bytes));
    expect(archive.warnings).toEqual(['far.txt: data overflows the data area: 2 + 3000 > 3']);
    expect(new TextDecoder().decode(await archive.read(archive.entries[0]!))).toBe('abc');
    const err = await archive.read(archive.entries[1]!).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).message).toBe('far.txt: entry data overflows its bounds: 2 + 3000 > 3');
  });

  it('a stored entry whose sizes disagree fails when read', async () => {
    const bytes = handMade([{ kind: KIND_STORED, offset: 0, packedSize: 3, realSize: 5, name: ascii('x') }], 'xor', ascii('abcdef'));
    const archive = await pangyaEngine.open(new MemorySource(bytes));
    await expect(archive.read(archive.entries[0]!)).rejects.toThrow('x: stored entry declares 5 bytes but holds 3');
  });

  it('refuses an XOR name with control bytes', async () => {
    const bytes = handMade([{ kind: KIND_DIR, offset: 0, packedSize: 0, realSize: 0, name: Uint8Array.of(0x61, 0x09, 0x62) }], 'xor');
    expect((await openError(bytes)).message).toBe('Pangya entry 0 at 0 has a name with control bytes');
  });

  it('an XTEA table no key decodes fails with the keys it tried', async () => {
    const bytes = handMade([{ kind: KIND_DIR, offset: 0, packedSize: 0, realSize: 0, name: ascii('folder') }], 'xtea');
    // Replace the enciphered name with a block that deciphers to control bytes under every key.
    const noise = (i: number) => Uint8Array.of(i & 0xff, i >> 8, 1, 2, 3, 4, 5, 6);
    let i = 0;
    while (REGIONS.some((r) => !hasControlBytes(xteaDecipher(noise(i), REGION_KEYS[r])))) i++;
    bytes.set(noise(i), 14);
    const err = await openError(bytes);
    expect(err.code).toBe('bad-name');
    expect(err.message).toBe('no Pangya region key (us, jp, th, eu, id, kr) turns the table into names (first XTEA entry 0 at 0)');
  });

  it('reports an ambiguous region with every candidate, and picks the first', async () => {
    // A directory block that is not (0, 0) under any key, and a name found to read as text under two keys.
    let found: { name: Uint8Array; other: string } | null = null;
    for (let i = 0; !found; i++) {
      const plain = ascii(`dir${i}`.padEnd(8, '_'));
      const enciphered = xteaEncipher(plain.slice(), REGION_KEYS.us);
      for (const r of REGIONS.slice(1)) {
        const other = trimNamePadding(xteaDecipher(enciphered.slice(), REGION_KEYS[r]));
        if (
          other.length > 0 &&
          !hasControlBytes(other) &&
          decodeName(other).cp949 &&
          !decodeName(other).text.includes('/') &&
          !decodeName(other).text.includes('\\')
        ) {
          found = { name: plain, other: r };
          break;
        }
      }
    }
    const bytes = handMade([{ kind: KIND_DIR, offset: 12345, packedSize: 0, realSize: 678, name: found.name }], 'xtea');
    const archive = await pangyaEngine.open(new MemorySource(bytes));
    expect(archive.info()).toMatchObject({
      region: 'us',
      regionCandidates: ['us', found.other],
      note: `region ambiguous: the keys of us, ${found.other} all decode the table; using us`,
    });
  });

  it('an empty archive is recognised only with its empty table right before the trailer', async () => {
    const empty = await buildArchive({}, []);
    expect(empty.length).toBe(9);
    expect(await pangyaEngine.detect(new MemorySource(empty))).toEqual({ match: true });
    expect((await pangyaEngine.open(new MemorySource(empty))).info()).toMatchObject({ files: 0, dirs: 0, bytes: 0 });
    const stray = Uint8Array.from([...ascii('some other file'), ...encodeTrailer(0, 0)]);
    expect(await pangyaEngine.detect(new MemorySource(stray))).toEqual({ match: false });
  });

  it('is recognised from its bytes by the format-neutral detection', async () => {
    for (const cipher of ['xor', 'xtea'] as const) {
      const { engine } = await detectFormat(new MemorySource(await buildArchive({ cipher })));
      expect(engine.id).toBe('pangya');
    }
    expect(fixtureFiles().length).toBe(6);
  });
});

describe('a damaged table behind a sound trailer', () => {
  it('is still recognised as Pangya, so the CLI names what is wrong instead of "not a recognised archive"', async () => {
    const { writeFile, mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { runCli } = await import('../../../helpers/run-cli.js');
    const bytes = await buildArchive({ cipher: 'xor', method: 'lz77' });
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    const tableOffset = view.getUint32(bytes.length - 9, true);
    const damaged = bytes.slice();
    damaged[tableOffset] = 0; // the first entry's name length: an empty name cannot be walked
    const dir = await mkdtemp(join(tmpdir(), 'modpak-pangya-damaged-'));
    try {
      const file = join(dir, 'damaged.pak');
      await writeFile(file, damaged);
      const r = await runCli(['list', file]);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^modpak: .*damaged\.pak: /);
      expect(r.stderr).not.toMatch(/not a recognised archive/);
      // Bytes that merely end in 0x12 with no sound trailer stay unrecognised.
      const junk = new Uint8Array(64).fill(0xee);
      junk[63] = 0x12;
      await writeFile(file, junk);
      expect((await runCli(['list', file])).stderr).toMatch(/not a recognised archive/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
