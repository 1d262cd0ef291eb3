/** A Daikatana stream split into its opcodes (for tests that check what an encoder emits). */
export type DkOp =
  | { kind: 'literal'; at: number; length: number }
  | { kind: 'zeros'; at: number; length: number }
  | { kind: 'run'; at: number; length: number }
  | { kind: 'copy'; at: number; length: number; distance: number }
  | { kind: 'noop'; at: number }
  | { kind: 'end'; at: number };

export function* dkOps(stream: Uint8Array): Generator<DkOp> {
  let i = 0;
  while (i < stream.length) {
    const at = i;
    const x = stream[i++]!;
    if (x < 0x40) {
      yield { kind: 'literal', at, length: x + 1 };
      i += x + 1;
    } else if (x < 0x80) yield { kind: 'zeros', at, length: x - 62 };
    else if (x < 0xc0) {
      yield { kind: 'run', at, length: x - 126 };
      i++;
    } else if (x < 0xfe) yield { kind: 'copy', at, length: x - 190, distance: stream[i++]! + 2 };
    else if (x === 0xfe) yield { kind: 'noop', at };
    else {
      yield { kind: 'end', at };
      return;
    }
  }
}
