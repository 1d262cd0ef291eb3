import { describe, expect, it } from 'vitest';
import { deflateSync } from 'node:zlib';
import { inflateZlib, inflateZlibOnce, reusedInflate } from '../../../electron/io/zlib.js';
import { prng } from '../../helpers/prng.js';

/** Bytes that compress some: runs of text among random bytes, as an archive's files mix them. */
function sample(length: number, seed: number): Uint8Array {
  const rand = prng(seed);
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = rand() < 0.7 ? 'UnitName=ARMCOM;'.charCodeAt(i % 16) : Math.floor(rand() * 256);
  return out;
}

/** What a call did: its bytes, or the code (or message) of what it threw. */
function outcome(inflate: () => Uint8Array): { bytes: number[] } | { error: string } {
  try {
    return { bytes: [...inflate()] };
  } catch (err) {
    return { error: String((err as NodeJS.ErrnoException).code ?? (err as Error).message) };
  }
}

describe('inflateZlib', () => {
  it('keeps one native stream for the thread on the Node this project runs', () => {
    // If a Node upgrade moves the stream's internals, inflateSync takes over and this says the fast path is gone.
    expect(reusedInflate()).not.toBeNull();
    expect(reusedInflate()).toBe(reusedInflate());
  });

  it('gives back the original bytes, call after call, as inflateSync does', () => {
    for (const [i, length] of [0, 1, 17, 4096, 65_536, 65_537, 300_000, 1 << 20].entries()) {
      const original = sample(length, i + 1);
      const stream = deflateSync(original, { level: i % 10 });
      const reused = inflateZlib(stream, length);
      expect(Buffer.compare(reused, original)).toBe(0);
      expect(Buffer.compare(inflateZlibOnce(stream, length), original)).toBe(0);
    }
  });

  it("inflates into the caller's scratch where it has room past the size, and tells one that outputs more", () => {
    const original = sample(65_536, 5);
    const stream = deflateSync(original);
    const roomy = new Uint8Array(65_536 + 64);
    const out = inflateZlib(stream, 65_536, roomy);
    expect(out.buffer).toBe(roomy.buffer);
    expect(Buffer.compare(out, original)).toBe(0);
    // Exactly the size leaves no room to see more coming: the output is an array of its own.
    const tight = new Uint8Array(65_536);
    const own = inflateZlib(stream, 65_536, tight);
    expect(own.buffer).not.toBe(tight.buffer);
    expect(Buffer.compare(own, original)).toBe(0);
    for (const max of [65_535, 65_536 - 64, 100]) {
      expect(() => inflateZlib(stream, max, roomy)).toThrow(expect.objectContaining({ code: 'ERR_BUFFER_TOO_LARGE' }));
    }
  });

  it('refuses a stream that inflates to more than asked, then inflates the next one', () => {
    const original = sample(65_536, 9);
    const stream = deflateSync(original);
    for (const max of [65_535, 65_536 - 64, 1000, 0]) {
      expect(() => inflateZlib(stream, max)).toThrow(expect.objectContaining({ code: 'ERR_BUFFER_TOO_LARGE' }));
      expect(() => inflateZlibOnce(stream, max)).toThrow(expect.objectContaining({ code: 'ERR_BUFFER_TOO_LARGE' }));
      expect(Buffer.compare(inflateZlib(stream, 65_536), original)).toBe(0);
    }
  });

  it('fails on a bad or cut stream as inflateSync does, and the next stream still inflates', () => {
    const original = sample(65_536, 3);
    const stream = new Uint8Array(deflateSync(original)); // slice() copies a Uint8Array, not a Buffer
    const corrupt = stream.slice();
    corrupt[0] = 0x79; // not a zlib header
    const badBody = stream.slice();
    badBody[40] = badBody[40]! ^ 0xff;
    const badAdler = stream.slice();
    badAdler[badAdler.length - 1] = badAdler[badAdler.length - 1]! ^ 0xff;
    const trailing = Buffer.concat([stream, Buffer.from('junk after the end')]);
    const cases = [corrupt, badBody, badAdler, stream.subarray(0, stream.length >> 1), stream.subarray(0, 1), new Uint8Array(0), trailing];
    for (const input of cases) {
      const reused = outcome(() => inflateZlib(input, 65_536));
      expect(reused).toEqual(outcome(() => inflateZlibOnce(input, 65_536)));
      expect(Buffer.compare(inflateZlib(stream, 65_536), original)).toBe(0);
    }
    expect(outcome(() => inflateZlib(badAdler, 65_536))).toEqual({ error: 'Z_DATA_ERROR' });
    expect(outcome(() => inflateZlib(stream.subarray(0, 100), 65_536))).toEqual({ error: 'Z_BUF_ERROR' });
  });
});
