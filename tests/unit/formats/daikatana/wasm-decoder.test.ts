import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DK_PIECE, DK_WINDOW, dkDecompress, dkDecompressPieces } from '../../../../electron/formats/daikatana/codec.js';
import { dkCompress } from '../../../../electron/formats/daikatana/encode.js';
import { FormatError } from '../../../../shared/errors.js';
import { prng } from '../../../helpers/prng.js';

/**
 * The WebAssembly decoder against the engine's opcode loop written plainly (below): on valid streams and
 * on hostile ones (random opcodes, cut-off and mutated streams, floods of no-ops that take several calls
 * of the module), the same bytes, or the same error at the same offset.
 */
function reference(src: Uint8Array, length: number): Uint8Array | string {
  if (length > src.length * 65) return `?: ${length} bytes cannot come from ${src.length} stored bytes (at most 65×)`;
  const out = new Uint8Array(length);
  let ip = 0;
  let op = 0;
  const hex = (x: number) => x.toString(16);
  for (;;) {
    if (ip >= src.length) return `${ip}: the data ends without the 0xFF end marker after ${op} of ${length} bytes`;
    const at = ip;
    const x = src[ip++]!;
    // The size check reports no offset.
    if (x === 0xff) return op === length ? out : `?: ends after ${op} bytes, the entry declares ${length}`;
    if (x === 0xfe) continue;
    const n = x < 0x40 ? x + 1 : x < 0x80 ? x - 62 : x < 0xc0 ? x - 126 : x - 190;
    if (op + n > length)
      return op === length
        ? `${at}: no 0xFF end marker after the declared ${length} bytes (opcode 0x${hex(x)} at ${at})`
        : `${at}: opcode 0x${hex(x)} at ${at} writes ${n} bytes at ${op}, past the declared length ${length}`;
    if (x < 0x40) {
      if (ip + n > src.length) return `${at}: literal of ${n} bytes at ${at} is cut off: only ${src.length - ip} bytes follow`;
      out.set(src.subarray(ip, ip + n), op);
      ip += n;
    } else if (x < 0x80) out.fill(0, op, op + n);
    else if (ip >= src.length)
      return x < 0xc0 ? `${at}: run at ${at} is cut off before its byte` : `${at}: back-reference at ${at} is cut off before its distance`;
    else if (x < 0xc0) out.fill(src[ip++]!, op, op + n);
    else {
      const from = op - (src[ip++]! + 2);
      if (from < 0) return `${at}: back-reference at ${at} reaches ${-from} bytes before the start of the output`;
      for (let i = 0; i < n; i++) out[op + i] = out[from + i]!;
    }
    op += n;
  }
}

function outcome(decode: () => Uint8Array): Uint8Array | string {
  try {
    return decode();
  } catch (err) {
    if (!(err instanceof FormatError)) throw err;
    return `${(err.details as { offset?: number }).offset ?? '?'}: ${err.message.replace(/^Daikatana stream: /, '')}`;
  }
}

/** The pieces in a lent window, each copied before the next overwrites it. */
function pieces(src: Uint8Array, length: number): () => Uint8Array {
  return () => {
    const parts: Uint8Array[] = [];
    for (const piece of dkDecompressPieces(src, length, new Uint8Array(DK_WINDOW))) parts.push(piece.slice());
    return Uint8Array.from(Buffer.concat(parts));
  };
}

/** Large outputs by digest: an element-by-element comparison of megabytes is slow. */
const digest = (r: Uint8Array | string) =>
  typeof r === 'string' ? r : `${r.length} bytes, sha256 ${createHash('sha256').update(r).digest('hex')}`;

/** What `check` found: decoded, or the error's words without its numbers. */
function check(src: Uint8Array, length: number): string {
  const want = digest(reference(src, length));
  expect(digest(outcome(() => dkDecompress(src, length)))).toBe(want);
  expect(digest(outcome(pieces(src, length)))).toBe(want);
  return / bytes, sha256 /.test(want) ? 'decoded' : want.replace(/^[^:]*: /, '').replace(/0x[0-9a-f]+|[0-9]+/gi, 'N');
}

describe('Daikatana WebAssembly decoder', () => {
  const rand = prng(11);
  const byte = () => (rand() * 256) | 0;

  it('agrees with the plain loop on valid streams, across piece boundaries and no-op floods', () => {
    const data = new Uint8Array(DK_PIECE + 70_000);
    for (let i = 0; i < data.length;) {
      const n = 1 + ((rand() * 300) | 0);
      const kind = rand();
      for (let k = 0; k < n && i < data.length; k++, i++) data[i] = kind < 0.3 ? 0 : kind < 0.6 ? (data[i - 7] ?? 1) : byte();
    }
    const packed = dkCompress(data);
    check(packed, data.length);
    // 5,000 no-ops before the end: the module is called again and again for input that yields nothing.
    const flooded = new Uint8Array(packed.length + 5000);
    flooded.set(packed.subarray(0, packed.length - 1));
    flooded.fill(0xfe, packed.length - 1);
    flooded[flooded.length - 1] = 0xff;
    check(flooded, data.length);
  });

  it('agrees on random opcodes, cut-off and mutated streams: the same bytes or the same error, of every kind', () => {
    const length = 3000;
    const valid = dkCompress(Uint8Array.from({ length }, (_, i) => (i % 97 < 40 ? 0 : (i * 7) % 13)));
    const body = valid.subarray(0, valid.length - 1);
    const withTail = (...tail: number[]) => Uint8Array.from([...body, ...tail]);
    const kinds = new Set<string>();
    for (let round = 0; round < 600; round++) {
      const cases: [Uint8Array, number][] = [
        [Uint8Array.from({ length: 1 + ((rand() * 200) | 0) }, byte), (rand() * 2000) | 0],
        [valid.subarray(0, (rand() * valid.length) | 0), length],
        [valid.map((b) => (rand() < 0.002 ? byte() : b)), length],
        [valid, (rand() * 2 * length) | 0],
        [withTail(0x80 + ((rand() * 64) | 0)), length + 70],
        [withTail(0xc0 + ((rand() * 62) | 0)), length + 70],
        [withTail((rand() * 64) | 0, 0x41), length + 70],
        [withTail((rand() * 256) | 0, 0x41, 0xff), length],
      ];
      for (const [src, declared] of cases) kinds.add(check(src, declared));
    }
    expect([...kinds].sort()).toEqual([
      'N bytes cannot come from N stored bytes (at most N×)',
      'back-reference at N is cut off before its distance',
      'back-reference at N reaches N bytes before the start of the output',
      'decoded',
      'ends after N bytes, the entry declares N',
      'literal of N bytes at N is cut off: only N bytes follow',
      'no N end marker after the declared N bytes (opcode N at N)',
      'opcode N at N writes N bytes at N, past the declared length N',
      'run at N is cut off before its byte',
      'the data ends without the N end marker after N of N bytes',
    ]);
  });
});
