/**
 * Type-ahead for lists and trees: letters typed within RESET_MS of each other make one prefix, and the
 * focus goes to the next row whose name starts with it (from the row after the active one, wrapping; a
 * longer prefix first tries the active row itself, so "ar" after "a" stays on ARMCOM).
 */
export const TYPE_AHEAD_RESET_MS = 500;

export class TypeAhead {
  private buffer = '';
  private last = -Infinity;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Whether a buffer is being typed (a space then belongs to it rather than toggling a row). */
  get typing(): boolean {
    return this.buffer !== '' && this.now() - this.last < TYPE_AHEAD_RESET_MS;
  }

  /** Whether a key is one type-ahead takes: a printable character, a space only inside a prefix. */
  takes(event: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean }): boolean {
    if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return false;
    return event.key !== ' ' || this.typing;
  }

  /**
   * Take one key; returns the row to move to, or null (no match, or not a type-ahead key). `nameOf` gives
   * a row's name; `active` is the active row (-1 for none).
   */
  key(char: string, count: number, active: number, nameOf: (index: number) => string): number | null {
    if (char.length !== 1 || (char === ' ' && !this.typing)) return null;
    const time = this.now();
    if (time - this.last >= TYPE_AHEAD_RESET_MS) this.buffer = '';
    this.last = time;
    this.buffer += char.toLowerCase();
    const prefix = this.buffer;
    // Repeating one letter cycles through the rows starting with it.
    const cycling = prefix.length > 1 && [...prefix].every((c) => c === prefix[0]);
    const wanted = cycling ? prefix[0]! : prefix;
    const first = prefix.length > 1 && !cycling ? Math.max(active, 0) : active + 1;
    for (let step = 0; step < count; step++) {
      const index = (first + step) % count;
      if (nameOf(index).toLowerCase().startsWith(wanted)) return index;
    }
    return null;
  }

  reset(): void {
    this.buffer = '';
    this.last = -Infinity;
  }
}
