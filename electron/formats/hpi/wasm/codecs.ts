/**
 * HPI's SQSH payload codecs in WebAssembly (codecs.wat): the position cipher with the chunk checksum and
 * scramble, and the LZ77 decoder. Each call copies its input into the module's memory and its result out;
 * an enciphered LZ77 payload is deciphered and decoded there in one go.
 */
import { compiledOnFirstUse, heapOf } from '../../common/wasm.js';
import { WASM_BASE64 } from './codecs.wasm.js';

interface CodecExports {
  memory: WebAssembly.Memory;
  at: WebAssembly.Global;
  outAt: WebAssembly.Global;
  length: WebAssembly.Global;
  decode(n: number, size: number, outputAt: number): number;
  decipher(n: number, start: number, key: number, mask: number, scrambled: number): number;
}

/** How the bytes of a payload are enciphered where they sit in the file. */
export interface PayloadCipher {
  filePos: number;
  key: number;
  /** The position's bits in the key stream: 0xFF, or 0 for a SQSH payload of an archive without a key. */
  mask: number;
  scrambled: boolean;
}

/** Why an LZ77 stream did not decode, and where (input offset; for a match past the end, its output position and length). */
export type Lz77Failure =
  | { kind: 'literal-overrun'; at: number }
  | { kind: 'match-cut-off'; at: number }
  | { kind: 'match-overrun'; at: number; outAt: number; length: number };

export interface Lz77Decoded {
  /** Bytes the stream produced before it ended (written to `out` only when they are all `size` of them). */
  produced: number;
  /** The payload's u32 byte sum as stored (after the cipher, before the scramble); 0 without a cipher. */
  sum: number;
  failure: Lz77Failure | null;
}

const compiled = compiledOnFirstUse(WASM_BASE64);
/** The memory a thread keeps between payloads: a v1 chunk (64 KB) and its packed bytes, several times over. */
const KEPT_BYTES = 1 << 20;
let kept: CodecExports | undefined;

const instantiate = () => new WebAssembly.Instance(compiled(), {}).exports as unknown as CodecExports;

/**
 * An instance with room for `bytes`: the thread's own, or for a larger payload (a TA: Kingdoms directory,
 * a whole file in one chunk) one of its own, which goes with it, as a module's memory never shrinks.
 */
function codecsFor(bytes: number): { codecs: CodecExports; heap: Uint8Array } {
  const codecs = bytes <= KEPT_BYTES ? (kept ??= instantiate()) : instantiate();
  return { codecs, heap: heapOf(codecs.memory, bytes) };
}

/** Bytes between the input and the output: the fast path reads up to 24 past a flag byte. */
const INPUT_SLACK = 32;
/** Bytes past the output: the fast path writes up to 8 past a group. */
const OUTPUT_SLACK = 32;

/** `raw` deciphered (and unscrambled when asked) into `out`'s first `raw.length` bytes; returns the u32 byte sum. */
export function decipherInto(raw: Uint8Array, cipher: PayloadCipher, out: Uint8Array): number {
  const n = raw.length;
  const { codecs, heap } = codecsFor(n);
  heap.set(raw);
  const sum = codecs.decipher(n, cipher.filePos & 0xff, cipher.key, cipher.mask, cipher.scrambled ? 1 : 0);
  out.set(heap.subarray(0, n));
  return sum >>> 0;
}

const FAILURE_KINDS = ['literal-overrun', 'match-cut-off', 'match-overrun'] as const;

/** The LZ77 stream `payload` (first deciphered when a cipher is given) decoded into `out`'s first `size` bytes. */
export function decodeLz77Into(payload: Uint8Array, size: number, out: Uint8Array, cipher: PayloadCipher | null): Lz77Decoded {
  const n = payload.length;
  const outputAt = (n + INPUT_SLACK + 7) & ~7;
  const { codecs, heap } = codecsFor(outputAt + size + OUTPUT_SLACK);
  heap.set(payload);
  const sum = cipher ? codecs.decipher(n, cipher.filePos & 0xff, cipher.key, cipher.mask, cipher.scrambled ? 1 : 0) >>> 0 : 0;
  const produced = codecs.decode(n, size, outputAt);
  if (produced < 0) {
    const kind = FAILURE_KINDS[-produced - 1]!;
    const at = codecs.at.value;
    const failure: Lz77Failure =
      kind === 'match-overrun' ? { kind, at, outAt: codecs.outAt.value, length: codecs.length.value } : { kind, at };
    return { produced: 0, sum, failure };
  }
  if (produced === size) out.set(heap.subarray(outputAt, outputAt + size));
  return { produced, sum, failure: null };
}
