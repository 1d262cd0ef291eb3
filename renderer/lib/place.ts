/**
 * A place in the studio as the URL's hash carries it: `#/SCREEN?install=ROOT&path=PATH` (and `archive=` for
 * the Archive screen's file, `game=`/`mod=` for how the install was opened). The hash, not the path or
 * the query: the query holds `modpak serve`'s token, and Electron loads the page from a file/app URL
 * where only the hash is the page's own.
 */
export interface Place {
  screen: string;
  /** The open install's root. */
  install?: string;
  game?: string;
  mod?: string;
  /** The selected path: in the install (Files) or in the archive (Archive). */
  path?: string;
  /** The Archive screen's archive file. */
  archive?: string;
}

const FIELDS = ['install', 'game', 'mod', 'archive', 'path'] as const;

export function formatPlace(place: Place): string {
  const query = new URLSearchParams();
  for (const field of FIELDS) {
    const value = place[field];
    if (value) query.set(field, value);
  }
  const text = query.toString();
  return `#/${encodeURIComponent(place.screen)}${text ? `?${text}` : ''}`;
}

/** The place a hash names, or null when it names none (empty, or not ours). */
export function parsePlace(hash: string): Place | null {
  const match = /^#\/([^?]*)(?:\?(.*))?$/.exec(hash);
  if (!match) return null;
  let screen: string;
  try {
    screen = decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
  if (!/^[a-z]+$/.test(screen)) return null;
  const place: Place = { screen };
  const query = new URLSearchParams(match[2] ?? '');
  for (const field of FIELDS) {
    const value = query.get(field);
    if (value) place[field] = value;
  }
  return place;
}

export function samePlace(a: Place | null, b: Place | null): boolean {
  if (!a || !b) return a === b;
  return a.screen === b.screen && FIELDS.every((f) => (a[f] ?? '') === (b[f] ?? ''));
}
