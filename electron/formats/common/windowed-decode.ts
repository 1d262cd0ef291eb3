/** Where a piecewise decode stands: in the stream, in its window, and how much output came before the window's start. */
export interface WindowCursor {
  ip: number;
  op: number;
  before: number;
}

/**
 * Run a back-reference decoder a piece at a time in one window, so memory stays at the window whatever the
 * entry declares. `decode(window, stop)` fills the window from `cursor.op` until it reaches `stop` (it may
 * overshoot by one token) and says whether the stream goes on. Each piece is a view of `lent` valid until
 * the next is asked for, or a copy when no window is lent. Between pieces the last `history` bytes (the
 * furthest a reference reaches) move to the window's front.
 */
export function* decodeInWindow(
  options: { size: number; piece: number; history: number; lent: Uint8Array | undefined },
  cursor: WindowCursor,
  decode: (window: Uint8Array, stop: number) => boolean,
): Generator<Uint8Array> {
  const { size, piece, history, lent } = options;
  if (lent && lent.length < size) throw new Error(`a window of ${lent.length} bytes is smaller than ${size}`);
  // A window of its own is reused too: the caller gets copies, which stay valid.
  const window = lent ?? new Uint8Array(size);
  let from = 0;
  for (;;) {
    const more = decode(window, from + piece);
    if (cursor.op > from) yield lent ? window.subarray(from, cursor.op) : window.slice(from, cursor.op);
    if (!more) return;
    const keep = Math.min(history, cursor.op);
    window.copyWithin(0, cursor.op - keep, cursor.op);
    cursor.before += cursor.op - keep;
    cursor.op = from = keep;
  }
}
