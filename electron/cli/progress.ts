/**
 * A progress bar on stderr, drawn only when stderr is a terminal (so pipes and tests see clean output).
 * Redraws at most ten times a second.
 */
export interface Progress {
  update(done: number, total: number, label?: string): void;
  done(): void;
}

export function terminalProgress(title: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return { update() {}, done() {} };
  let last = 0;
  let drawn = false;
  return {
    update(done, total, label = '') {
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      const width = 30;
      const ratio = total > 0 ? Math.min(1, done / total) : 1;
      const filled = Math.round(ratio * width);
      const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
      const text = `${title} ${bar} ${done}/${total} ${label}`.slice(0, (stream.columns || 80) - 1);
      stream.write(`\r\x1b[K${text}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[K');
    },
  };
}
