/**
 * The Daikatana encoder's parse and search written plainly in TypeScript (a fresh table per input, no
 * tricks), for the WebAssembly encoder (electron/formats/daikatana/wasm/encode.wat) to be checked against
 * byte for byte: the same greedy rule, the same chains and limits, the same hashes of each 4- and 3-byte
 * prefix (of its little-endian word).
 */
const MAX_CHAIN = 64;
const TRIPLE_CHAIN = 64;
const RUN_TAIL_HASHED = 16;
const HEAD_BITS = 12;
const WINDOW = 257;

export function referenceDkCompress(data: Uint8Array): Uint8Array {
  const n = data.length;
  const head4 = new Int32Array(1 << HEAD_BITS).fill(-1);
  const head3 = new Int32Array(1 << HEAD_BITS).fill(-1);
  const head2 = new Int32Array(1 << 16).fill(-1);
  const prev4 = new Int32Array(n).fill(-1);
  const prev3 = new Int32Array(n).fill(-1);
  const prev2 = new Int32Array(n).fill(-1);
  const hash4 = (p: number) =>
    Math.imul(data[p]! | (data[p + 1]! << 8) | (data[p + 2]! << 16) | (data[p + 3]! << 24), 0x9e3779b1) >>> (32 - HEAD_BITS);
  const hash3 = (p: number) => Math.imul(data[p]! | (data[p + 1]! << 8) | (data[p + 2]! << 16), 0x9e3779b1) >>> (32 - HEAD_BITS);
  let hashed = 0;
  const insert = (to: number) => {
    for (let p = hashed; p < to; p++) {
      const pair = data[p]! | (data[p + 1]! << 8);
      prev2[p] = head2[pair]!;
      head2[pair] = p;
      if (p <= n - 3) {
        const h = hash3(p);
        prev3[p] = head3[h]!;
        head3[h] = p;
      }
      if (p <= n - 4) {
        const h = hash4(p);
        prev4[p] = head4[h]!;
        head4[h] = p;
      }
    }
  };
  const out = new Uint8Array(n + Math.ceil(n / 64) + 1);
  let op = 0;
  const push = (...bytes: number[]) => {
    for (const x of bytes) out[op++] = x;
  };
  let litStart = 0;
  const flushLiterals = (to: number) => {
    while (litStart < to) {
      const len = Math.min(64, to - litStart);
      out[op++] = len - 1;
      out.set(data.subarray(litStart, litStart + len), op);
      op += len;
      litStart += len;
    }
  };
  let i = 0;
  while (i < n) {
    const b = data[i]!;
    let run = 1;
    while (run < Math.min(65, n - i) && data[i + run] === b) run++;
    const pending = i > litStart;
    const zeroGain = b === 0 && run >= 2 ? run - 1 : 0;
    const runGain = run >= 3 || (run === 2 && !pending) ? run - 2 : -1;
    const maxLength = Math.min(63, n - i);
    let length = run < 2 ? 1 : b === 0 ? run + 1 : run;
    let distance = 0;
    if (length < maxLength) {
      insert(i);
      hashed = i;
      const lowest = i - WINDOW;
      if (i + 3 < n) {
        let c = head4[hash4(i)]!;
        for (let chain = MAX_CHAIN; c >= 0 && c >= lowest && chain > 0; chain--) {
          const d = i - c;
          const limit = Math.min(d, maxLength);
          let len = 0;
          while (len < limit && data[c + len] === data[i + len]) len++;
          if (len > length) {
            length = len;
            distance = d;
            if (len === maxLength) break;
          }
          c = prev4[c]!;
        }
      }
      if (length < 3 && maxLength >= 3) {
        let c = head3[hash3(i)]!;
        for (let chain = TRIPLE_CHAIN; c >= 0 && c >= lowest && chain > 0; chain--) {
          const d = i - c;
          if (d >= 3 && data[c] === data[i] && data[c + 1] === data[i + 1] && data[c + 2] === data[i + 2]) {
            length = 3;
            distance = d;
            break;
          }
          c = prev3[c]!;
        }
      }
      if (length < 2 && !pending) {
        for (let c = head2[b | (data[i + 1]! << 8)]!; c >= 0 && c >= lowest; c = prev2[c]!) {
          if (i - c >= 2) {
            length = 2;
            distance = i - c;
            break;
          }
        }
      }
    }
    const matchGain = distance === 0 ? -1 : length >= 3 || !pending ? length - 2 : -1;
    if (zeroGain > 0 && zeroGain >= runGain && zeroGain >= matchGain) {
      flushLiterals(i);
      push(0x40 + run - 2);
    } else if (runGain >= 0 && runGain >= matchGain) {
      flushLiterals(i);
      push(0x80 + run - 2, b);
    } else if (matchGain >= 0) {
      flushLiterals(i);
      push(0xc0 + length - 2, distance - 2);
      i += length;
      litStart = i;
      continue;
    } else {
      i++;
      continue;
    }
    if (run > RUN_TAIL_HASHED) {
      insert(i);
      hashed = i + run - RUN_TAIL_HASHED;
    }
    i += run;
    litStart = i;
  }
  flushLiterals(n);
  push(0xff);
  return out.slice(0, op);
}
