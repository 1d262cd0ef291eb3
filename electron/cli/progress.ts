/**
 * A progress bar on stderr, drawn only when stderr is a terminal (so pipes and tests see clean output),
 * with the rate and the time left. Redraws at most ten times a second.
 */
export interface Progress {
  update(done: number, total: number, label?: string): void;
  done(): void;
}

const BAR_WIDTH = 30;

/** `m:ss`, or `h:mm:ss` past an hour. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/** One line of the bar: title, bar, counts, rate per second and time left (once a rate is known). */
export function progressLine(title: string, done: number, total: number, label: string, elapsedMs: number, columns: number): string {
  const ratio = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(ratio * BAR_WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
  const seconds = elapsedMs / 1000;
  const rate = seconds >= 0.25 && done > 0 ? done / seconds : 0;
  const pace =
    rate > 0
      ? ` ${rate >= 100 ? Math.round(rate) : rate.toFixed(1)}/s, ${done < total ? `${formatDuration((total - done) / rate)} left` : `${formatDuration(seconds)}`}`
      : '';
  return `${title} ${bar} ${done}/${total}${pace} ${label}`.trimEnd().slice(0, columns - 1);
}

export function terminalProgress(title: string, stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): Progress {
  if (!stream.isTTY) return { update() {}, done() {} };
  const started = now();
  let last = 0;
  let drawn = false;
  return {
    update(done, total, label = '') {
      const at = now();
      if (at - last < 100 && done < total) return;
      last = at;
      stream.write(`\r\x1b[K${progressLine(title, done, total, label, at - started, stream.columns || 80)}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[K');
    },
  };
}
