import type { ArchiveEntry } from '../archive.js';
import { normalizeArchivePath } from '../../../shared/paths.js';
import { KIND_DIR, KIND_STORED, type MetadataCipher, type RawEntry, type StorageKind } from './layout.js';
import { LZ_MAX_RATIO } from './lz77.js';
import { NAME_ALL_SEPARATORS, NAME_ASCII, NAME_CONTROL, NAME_PLAIN_PATH, decodeName, nameShape, paddedNameEnd } from './names.js';
import { XOR_KEY, xorSize } from './xor.js';
import { xteaDecipherPair, xteaDecipherSchedule, xteaDecipherTo, type XteaKey, type XteaSchedule } from './xtea.js';

export interface PangyaEntry extends ArchiveEntry {
  readonly index: number;
  /** The name as stored (its own separators), decoded from CP949. */
  readonly name: string;
  readonly offset: number;
  readonly kind: StorageKind;
  readonly cipher: MetadataCipher;
}

export interface Decoded {
  entry: PangyaEntry;
  /** The name is not text: with XTEA, the wrong key; with XOR, a corrupt table. */
  nameProblem: string | null;
  /** Data out of bounds or sizes that cannot be true; reading the entry will fail. */
  dataProblem: string | null;
  cp949: boolean;
}

const METHOD: Record<StorageKind, string> = { 0: 'stored', 1: 'lz77', 2: 'dir', 3: 'lz77x' };

/** Name bytes made into one string at a time: the ASCII names are cut from it (a huge table is not one string). */
const TEXT_WINDOW = 1 << 20;

/** Why the entry's data cannot be as declared, or null. */
function dataProblemOf(raw: RawEntry, offset: number, realSize: number, dataLimit: number): string | null {
  if (raw.kind === KIND_DIR) return null;
  if (offset + raw.packedSize > dataLimit) return `data overflows the data area: ${offset} + ${raw.packedSize} > ${dataLimit}`;
  if (raw.kind === KIND_STORED && realSize !== raw.packedSize)
    return `is stored but declares ${realSize} bytes for ${raw.packedSize} packed`;
  if (raw.kind !== KIND_STORED && realSize > raw.packedSize * LZ_MAX_RATIO)
    return `declares ${realSize} bytes, more than LZ77 can make of ${raw.packedSize} packed`;
  return null;
}

/**
 * One key's reading of a list of entries (XTEA with a region key, or XOR with none): their numbers and
 * name bytes deciphered into arrays held for the whole list, and checked, with no object or string per
 * entry but for the rare name that is not ASCII. Only the first key that fits is turned into entries
 * (`decoded`), its ASCII names cut from one string per window of names instead of made one at a time.
 */
export class TableReading {
  /** Every entry's name bytes, deciphered, one after another. */
  private readonly names: Uint8Array;
  private readonly nameStarts: Int32Array;
  /** Where each name ends once its padding is trimmed. */
  private readonly nameEnds: Int32Array;
  private readonly offsets: Uint32Array;
  private readonly realSizes: Uint32Array;
  /** nameShape of each name. */
  private readonly shapes: Uint8Array;
  /** The names that are not ASCII (rare), decoded from CP949 as they are read, with their paths. */
  private readonly nonAscii = new Map<number, { text: string; cp949: boolean; path: string }>();
  private readonly words = new Uint32Array(2);

  constructor(
    /** The table's bytes, which `raws` point into. */
    private readonly table: Uint8Array,
    private readonly raws: readonly RawEntry[],
    private readonly dataLimit: number,
  ) {
    const n = raws.length;
    this.nameStarts = new Int32Array(n);
    this.nameEnds = new Int32Array(n);
    this.offsets = new Uint32Array(n);
    this.realSizes = new Uint32Array(n);
    this.shapes = new Uint8Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) {
      this.nameStarts[i] = total;
      total += raws[i]!.nameLength;
    }
    // At most the table's bytes, which were read already.
    this.names = new Uint8Array(total);
  }

  /**
   * Read every entry with `key` (null: XOR). Whether each fits it at `level` at least (see `read`); stops
   * at the first that does not. Level 0 reads them all.
   */
  fits(key: XteaKey | null, level: number): boolean {
    this.nonAscii.clear();
    const schedule = key ? xteaDecipherSchedule(key) : null;
    for (let i = 0; i < this.raws.length; i++) if (this.read(i, schedule, level >= 2) < level) return false;
    return true;
  }

  /**
   * How well `key` fits entry `i`, from 0 (the name is not text: the wrong key) to 3: 1 text name, 2 also
   * CP949 with in-bounds, plausible sizes, 3 also a directory block of zeros, as writers leave it (a file
   * that reaches 2 counts as 3). Random bytes pass as CP949 text surprisingly often (UHC covers most byte
   * pairs), so the data checks and the zero directory blocks are what really tell the keys apart. With
   * `dataFirst`, data out of bounds rules the key out (0) before the name is deciphered.
   */
  private read(i: number, schedule: XteaSchedule | null, dataFirst: boolean): number {
    const raw = this.raws[i]!;
    let offset: number;
    let realSize: number;
    if (schedule) {
      xteaDecipherPair(raw.offset, raw.realSize, schedule, this.words);
      offset = this.words[0]!;
      realSize = this.words[1]!;
    } else {
      offset = raw.offset;
      realSize = xorSize(raw.realSize);
    }
    this.offsets[i] = offset;
    this.realSizes[i] = realSize;
    const dataBad = dataProblemOf(raw, offset, realSize, this.dataLimit) !== null;
    if (dataBad && dataFirst) return 0;

    const names = this.names;
    const start = this.nameStarts[i]!;
    let end = start + raw.nameLength;
    if (schedule) {
      xteaDecipherTo(this.table, raw.nameAt, raw.nameLength, names, start, schedule);
      end = paddedNameEnd(names, start, end);
    } else {
      const table = this.table;
      for (let k = 0; k < raw.nameLength; k++) names[start + k] = table[raw.nameAt + k]! ^ XOR_KEY;
      while (end > start && names[end - 1] === 0) end--;
    }
    this.nameEnds[i] = end;
    // A name with control bytes is refused whatever it decodes to (most wrong keys give one): not decoding
    // it keeps the CP949 tables unbuilt for archives whose names are ASCII.
    const shape = nameShape(names, start, end);
    this.shapes[i] = shape;
    if (end === start || shape & (NAME_CONTROL | NAME_ALL_SEPARATORS)) return 0;
    let cp949 = true;
    if (!(shape & NAME_ASCII)) {
      const { text, cp949: valid } = decodeName(names.subarray(start, end));
      const path = normalizeArchivePath(text);
      this.nonAscii.set(i, { text, cp949: valid, path });
      if (path === '') return 0;
      cp949 = valid;
    }
    if (dataBad || !cp949) return 1;
    return raw.kind === KIND_DIR && (offset !== 0 || realSize !== 0) ? 2 : 3;
  }

  /** The entries as the last `fits` read them (it must have read them all). */
  decoded(): Decoded[] {
    const out: Decoded[] = [];
    let window = '';
    let slashed = '';
    let windowStart = 0;
    let windowEnd = 0;
    for (let i = 0; i < this.raws.length; i++) {
      const raw = this.raws[i]!;
      const start = this.nameStarts[i]!;
      const end = this.nameEnds[i]!;
      const shape = this.shapes[i]!;
      let text = '';
      let path = '';
      let cp949 = true;
      if (shape & NAME_CONTROL) cp949 = false;
      else if (shape & NAME_ASCII) {
        if (start < windowStart || end > windowEnd) {
          windowStart = start;
          windowEnd = Math.max(end, Math.min(this.names.length, start + TEXT_WINDOW));
          // Latin-1 is ASCII for ASCII bytes; the bytes of other names in the window are never cut out.
          window = Buffer.from(this.names.buffer, this.names.byteOffset + start, windowEnd - start).toString('latin1');
          slashed = window.replaceAll('\\', '/');
        }
        text = window.substring(start - windowStart, end - windowStart);
        path = shape & NAME_PLAIN_PATH ? slashed.substring(start - windowStart, end - windowStart) : normalizeArchivePath(text);
      } else {
        ({ text, cp949, path } = this.nonAscii.get(i)!);
      }
      let nameProblem: string | null = null;
      if (end === start) nameProblem = 'has an empty name';
      else if (shape & NAME_CONTROL) nameProblem = 'has a name with control bytes';
      else if (path === '') nameProblem = `has a name with no path in it (${JSON.stringify(text)})`;

      const offset = this.offsets[i]!;
      const realSize = this.realSizes[i]!;
      const dir = raw.kind === KIND_DIR;
      const entry: PangyaEntry = {
        path,
        dir,
        size: dir ? 0 : realSize,
        packedSize: dir ? 0 : raw.packedSize,
        method: METHOD[raw.kind],
        index: raw.index,
        name: text,
        offset,
        kind: raw.kind,
        cipher: raw.cipher,
      };
      out.push({ entry, nameProblem, dataProblem: dataProblemOf(raw, offset, realSize, this.dataLimit), cp949 });
    }
    return out;
  }
}
