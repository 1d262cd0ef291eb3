import type { CliContext } from './context.js';

/**
 * Warnings gathered by kind, so an archive that trips one check on every entry (kbot-io's v2 archives
 * store checksum 0 everywhere; pakka's Daikatana entries all say they are compressed) gives one line per
 * kind with a count instead of thousands. With `verbose` every warning is printed as it comes; so is every
 * refusal (each is a name that was not written).
 *
 * The kind of a message is its text with what varies between entries taken out: the leading
 * "PATH: " (or "SQSH chunk at N: "), quoted names and numbers.
 */
export function warningKind(message: string): string {
  return message
    .replace(/^[^:]*: /, '')
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/0x[0-9a-f]+/gi, '0x#')
    .replace(/\d+/g, '#');
}

export class WarningTally {
  private readonly kinds = new Map<string, { first: string; count: number }>();

  constructor(
    private readonly ctx: CliContext,
    private readonly verbose = false,
  ) {}

  add(message: string): void {
    // A refused name is reported each time: every one is a file that was not written.
    if (this.verbose || message.startsWith('refused to ')) return this.ctx.warn(message);
    const kind = warningKind(message);
    const seen = this.kinds.get(kind);
    if (seen) seen.count++;
    else this.kinds.set(kind, { first: message, count: 1 });
  }

  /** One line per kind: the first message, and how many more of its kind there were. */
  lines(): string[] {
    return [...this.kinds.values()].map(({ first, count }) =>
      count === 1 ? first : `${first} (and ${count - 1} more like it; -v lists them)`,
    );
  }

  /** Print the lines as warnings and start over. */
  flush(): void {
    for (const line of this.lines()) this.ctx.warn(line);
    this.kinds.clear();
  }

  get count(): number {
    let n = 0;
    for (const k of this.kinds.values()) n += k.count;
    return n;
  }
}
