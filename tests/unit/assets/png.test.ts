import { describe, expect, it } from 'vitest';
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { decodePng, encodeApng, encodePng } from '../../../shared/assets/png.js';
import { FormatError } from '../../../shared/errors.js';
import { deflateZlib } from '../../../electron/io/zlib.js';

/** The chunks of a PNG, read here from the PNG specification's layout (length, type, data, CRC). */
function chunks(png: Uint8Array): { type: string; data: Buffer; crcOk: boolean }[] {
  const buf = Buffer.from(png);
  expect([...buf.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const out = [];
  for (let at = 8; at < buf.length;) {
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + length);
    out.push({ type, data, crcOk: crc32(buf.subarray(at + 4, at + 8 + length)) === buf.readUInt32BE(at + 8 + length) });
    at += 12 + length;
  }
  return out;
}

const picture = (width: number, height: number, seed: number) => ({
  width,
  height,
  rgba: Uint8Array.from({ length: width * height * 4 }, (_, i) => (i * 31 + seed * 7) & 0xff),
});

describe('PNG', () => {
  it('writes 8-bit RGBA rows that zlib and the chunk CRCs confirm', () => {
    const image = picture(5, 3, 1);
    const parts = chunks(encodePng(image));
    expect(parts.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(parts.every((c) => c.crcOk)).toBe(true);
    const ihdr = parts[0]!.data;
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9], ihdr[12]]).toEqual([5, 3, 8, 6, 0]);
    const raw = inflateSync(parts[1]!.data);
    for (let y = 0; y < 3; y++) {
      expect(raw[y * 21]).toBe(0);
      expect([...raw.subarray(y * 21 + 1, y * 21 + 21)]).toEqual([...image.rgba.subarray(y * 20, y * 20 + 20)]);
    }
  });

  it('writes an APNG whose frames carry their delays and sequence numbers', () => {
    const frames = [0, 1, 2].map((n) => ({ image: picture(4, 4, n), delayMs: 100 + n * 50 }));
    const parts = chunks(encodeApng(frames));
    expect(parts.map((c) => c.type)).toEqual(['IHDR', 'acTL', 'fcTL', 'IDAT', 'fcTL', 'fdAT', 'fcTL', 'fdAT', 'IEND']);
    expect(parts[1]!.data.readUInt32BE(0)).toBe(3);
    const controls = parts
      .filter((c) => c.type === 'fcTL')
      .map((c) => [c.data.readUInt32BE(0), c.data.readUInt16BE(20), c.data.readUInt16BE(22)]);
    expect(controls).toEqual([
      [0, 100, 1000],
      [1, 150, 1000],
      [3, 200, 1000],
    ]);
    const third = parts[7]!.data;
    expect(third.readUInt32BE(0)).toBe(4);
    expect(inflateSync(third.subarray(4))[1]).toBe(frames[2]!.image.rgba[0]);
  });

  it("hands the rows to the deflater it is given (the main process passes Node's native one)", () => {
    const image = picture(64, 48, 3);
    const frames = [image, picture(64, 48, 4)].map((frame) => ({ image: frame, delayMs: 80 }));
    const given: number[] = [];
    const native = (rows: Uint8Array) => {
      given.push(rows.length);
      return deflateZlib(rows);
    };
    expect(decodePng(encodePng(image, native))).toEqual(image);
    expect(given).toEqual([(64 * 4 + 1) * 48]);
    const apng = chunks(encodeApng(frames, native));
    expect(given).toHaveLength(3);
    // Any deflater gives the same rows: the second frame's, behind its sequence number.
    expect(inflateSync(apng.find((c) => c.type === 'fdAT')!.data.subarray(4))).toEqual(
      inflateSync(chunks(encodeApng(frames)).at(-2)!.data.subarray(4)),
    );
  });

  it('reads back what it writes', () => {
    const image = picture(7, 6, 3);
    expect(decodePng(encodePng(image))).toEqual(image);
  });

  it('reads every row filter, and RGB, grey and palette PNGs, as an independent writer makes them', () => {
    // A writer made here from the specification: each row uses filter (y % 5), 3 channels.
    const width = 4,
      height = 5,
      bpp = 3;
    const pixels = Uint8Array.from({ length: width * height * bpp }, (_, i) => (i * 53) & 0xff);
    const raw: number[] = [];
    for (let y = 0; y < height; y++) {
      const filter = y % 5;
      raw.push(filter);
      for (let x = 0; x < width * bpp; x++) {
        const at = y * width * bpp + x;
        const a = x >= bpp ? pixels[at - bpp]! : 0,
          b = y > 0 ? pixels[at - width * bpp]! : 0,
          c = x >= bpp && y > 0 ? pixels[at - width * bpp - bpp]! : 0;
        const p = a + b - c,
          pa = Math.abs(p - a),
          pb = Math.abs(p - b),
          pc = Math.abs(p - c);
        const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter]!;
        raw.push((pixels[at]! - pred) & 0xff);
      }
    }
    const png = build(width, height, 2, deflateSync(Buffer.from(raw)));
    const decoded = decodePng(png);
    for (let i = 0; i < width * height; i++) {
      expect([...decoded.rgba.subarray(i * 4, i * 4 + 4)]).toEqual([pixels[i * 3], pixels[i * 3 + 1], pixels[i * 3 + 2], 255]);
    }
    const paletted = build(2, 1, 3, deflateSync(Buffer.from([0, 1, 0])), { PLTE: [10, 20, 30, 40, 50, 60], tRNS: [0] });
    expect([...decodePng(paletted).rgba]).toEqual([40, 50, 60, 255, 10, 20, 30, 0]);
  });

  it('refuses what it does not read with one FormatError', () => {
    expect(() => decodePng(Uint8Array.of(1, 2, 3))).toThrow(FormatError);
    const sixteen = build(1, 1, 2, deflateSync(Buffer.alloc(7)), {}, 16);
    expect(() => decodePng(sixteen)).toThrow(/only 8-bit/);
    expect(() => encodePng({ width: 2, height: 2, rgba: new Uint8Array(3) })).toThrow(FormatError);
  });
});

function build(
  width: number,
  height: number,
  colourType: number,
  idat: Buffer,
  extra: Record<string, number[]> = {},
  depth = 8,
): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = depth;
  ihdr[9] = colourType;
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr)];
  for (const [type, bytes] of Object.entries(extra)) parts.push(chunk(type, Buffer.from(bytes)));
  parts.push(chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0)));
  return new Uint8Array(Buffer.concat(parts));
}
