import { checkRange, fail } from '../errors.js';

/**
 * A bounds-checked little-endian reader over a byte array, for the asset decoders (GAF, 3DO, COB, TNT, WAD,
 * BSP, MDL, ...). Every read checks its range first and fails with a FormatError that names the field and the
 * numbers, so a decoder never reads past its input and never trusts a count it has not checked.
 * Pure: no Node, no DOM; the CLI and the studio share it.
 */
export class ByteReader {
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    /** What the bytes are, named in every message ("ARMIMR.3do"). */
    readonly what = 'file',
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number {
    return this.bytes.length;
  }

  /** Fails unless [offset, offset + length) is inside the bytes. */
  check(field: string, offset: number, length: number): void {
    checkRange(`${this.what}: ${field}`, offset, length, this.bytes.length);
  }

  u8(offset: number, field = 'byte'): number {
    this.check(field, offset, 1);
    return this.bytes[offset]!;
  }

  u16(offset: number, field = 'u16'): number {
    this.check(field, offset, 2);
    return this.view.getUint16(offset, true);
  }

  i16(offset: number, field = 'i16'): number {
    this.check(field, offset, 2);
    return this.view.getInt16(offset, true);
  }

  u32(offset: number, field = 'u32'): number {
    this.check(field, offset, 4);
    return this.view.getUint32(offset, true);
  }

  i32(offset: number, field = 'i32'): number {
    this.check(field, offset, 4);
    return this.view.getInt32(offset, true);
  }

  f32(offset: number, field = 'f32'): number {
    this.check(field, offset, 4);
    return this.view.getFloat32(offset, true);
  }

  /** A view (no copy) of `length` bytes at `offset`. */
  slice(offset: number, length: number, field = 'bytes'): Uint8Array {
    this.check(field, offset, length);
    return this.bytes.subarray(offset, offset + length);
  }

  /** A fixed-size, NUL-padded Latin-1 field (GAF's 32-byte names, WAD's 16-byte lump names). */
  fixedString(offset: number, size: number, field = 'name'): string {
    const raw = this.slice(offset, size, field);
    let end = raw.indexOf(0);
    if (end < 0) end = raw.length;
    return latin1(raw.subarray(0, end));
  }

  /**
   * A NUL-terminated Latin-1 string at `offset`, at most `maxLength` bytes before its NUL (3DO and COB names).
   * Fails if no NUL comes before the end of the bytes or the limit.
   */
  cString(offset: number, maxLength = 1024, field = 'string'): string {
    this.check(field, offset, 1);
    const limit = Math.min(this.bytes.length, offset + maxLength + 1);
    for (let i = offset; i < limit; i++) {
      if (this.bytes[i] === 0) return latin1(this.bytes.subarray(offset, i));
    }
    return fail(
      'bad-name',
      `${this.what}: ${field} at ${offset} has no terminating NUL within ${Math.min(maxLength, this.bytes.length - offset)} bytes`,
      { offset },
    );
  }

  /** Fails unless `count` records of `size` bytes starting at `offset` fit: call before allocating for them. */
  checkTable(field: string, offset: number, count: number, size: number): void {
    if (!Number.isSafeInteger(count) || count < 0)
      fail('bad-count', `${this.what}: ${field} count ${count} is not a count`, { actual: count });
    this.check(`${field} (${count} × ${size} bytes)`, offset, count * size);
  }
}

/** Latin-1: one code unit per byte, which is what these formats' names are in practice. */
export function latin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4096) out += String.fromCharCode(...bytes.subarray(i, i + 4096));
  return out;
}
