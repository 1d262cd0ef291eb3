/** A splitter's position (the first pane's share, in percent), remembered per splitter in localStorage. */
const PREFIX = 'modpak.split.';

export function clampSize(value: number, min: number, max: number): number {
  return Math.round(Math.max(min, Math.min(max, value)) * 10) / 10;
}

export function savedSize(key: string, fallback: number, min: number, max: number): number {
  let raw: string | null | undefined;
  try {
    raw = globalThis.localStorage?.getItem(PREFIX + key);
  } catch {
    raw = null;
  }
  const value = raw === null || raw === undefined ? NaN : Number(raw);
  return Number.isFinite(value) ? clampSize(value, min, max) : fallback;
}

export function saveSize(key: string, value: number): void {
  try {
    globalThis.localStorage?.setItem(PREFIX + key, String(value));
  } catch {
    // storage can be disabled or full: the size then lasts until the page closes
  }
}

/** The new size after a key on the separator, or null for a key the separator does not take. */
export function sizeAfterKey(key: string, size: number, min: number, max: number, vertical: boolean): number | null {
  const back = vertical ? 'ArrowUp' : 'ArrowLeft';
  const forward = vertical ? 'ArrowDown' : 'ArrowRight';
  switch (key) {
    case back:
      return clampSize(size - 2, min, max);
    case forward:
      return clampSize(size + 2, min, max);
    case 'PageUp':
      return clampSize(size - 10, min, max);
    case 'PageDown':
      return clampSize(size + 10, min, max);
    case 'Home':
      return min;
    case 'End':
      return max;
    default:
      return null;
  }
}
