import { computed, watch, type WatchStopHandle } from 'vue';
import { screens } from './navigation';
import { formatPlace, parsePlace, samePlace, type Place } from './lib/place';
import { initAppStore } from './stores/app';
import { useArchiveStore } from './stores/archive';
import { useFilesStore } from './stores/files';
import { useInstallStore } from './stores/install';
import { useNavigationStore } from './stores/navigation';
import type { GameId } from '../shared/vfs-types';
import { GAME_IDS } from '../shared/vfs-types';

/**
 * Deep links: the URL's hash follows the place on show (screen, install, selected path; lib/place.ts),
 * so Back and Forward move between places and a reload comes back to the same one. A new screen, install
 * or archive is a new history entry; another selection on the same screen replaces the entry (arrow keys
 * through a tree would otherwise bury every earlier place).
 */
export interface RoutingWindow {
  location: { hash: string };
  history: { pushState(data: unknown, unused: string, url: string): void; replaceState(data: unknown, unused: string, url: string): void };
  addEventListener(type: 'hashchange', listener: () => void): void;
  removeEventListener(type: 'hashchange', listener: () => void): void;
}

/** The place the studio shows now. */
export function currentPlace(): Place {
  const nav = useNavigationStore();
  const install = useInstallStore();
  const place: Place = { screen: nav.current };
  if (install.root) {
    place.install = install.root;
    if (install.options.game) place.game = install.options.game;
    if (install.options.mod) place.mod = install.options.mod;
  }
  if (nav.current === 'files') {
    const row = useFilesStore().activeRow;
    if (row?.kind === 'file') place.path = row.path;
  } else if (nav.current === 'archive') {
    const archive = useArchiveStore();
    if (archive.path) place.archive = archive.path;
    const entry = archive.selected === null ? undefined : archive.listing?.entries[archive.selected];
    if (entry) place.path = entry.path;
  }
  return place;
}

/** Resolves once `done()` holds (at once if it does already). */
function until(done: () => boolean): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = watch(done, (ok) => {
      if (!ok) return;
      stop();
      resolve();
    });
  });
}

const asGame = (game: string | undefined): GameId | undefined =>
  (GAME_IDS as readonly string[]).includes(game ?? '') ? (game as GameId) : undefined;

/** Show a place: open its install (and archive) when another is open, go to its screen, select its path. */
export async function showPlace(place: Place): Promise<void> {
  const install = useInstallStore();
  const nav = useNavigationStore();
  if (place.install && place.install !== install.root) {
    const game = asGame(place.game);
    await install.open(place.install, { ...(game ? { game } : {}), ...(place.mod ? { mod: place.mod } : {}) });
  }
  const screen = screens.find((s) => s.id === place.screen) ? place.screen : 'home';
  if (screen === 'files' && place.path && install.root) {
    const files = useFilesStore();
    await files.ensureLoaded();
    await until(() => !files.loading);
    nav.go(screen);
    files.reveal(place.path);
    return;
  }
  nav.go(screen);
  if (screen === 'archive' && place.archive) {
    const archive = useArchiveStore();
    if (archive.path !== place.archive && !(await archive.open(place.archive))) return;
    const entries = archive.listing?.entries ?? [];
    const wanted = place.path?.toLowerCase();
    const at = wanted === undefined ? -1 : entries.findIndex((e) => e.path.toLowerCase() === wanted);
    if (at >= 0) archive.select(at);
  }
}

/**
 * Start the studio at the URL's place (its install instead of the host's initial one) and keep the URL
 * and the place in step from then on. Returns the function that stops it.
 */
export async function startRouting(win: RoutingWindow = window): Promise<() => void> {
  const wanted = parsePlace(win.location.hash);
  await initAppStore(wanted?.install);
  let applying = 0;
  const apply = async (place: Place) => {
    applying++;
    try {
      await showPlace(place);
    } finally {
      applying--;
    }
  };
  if (wanted) await apply(wanted);

  let written = currentPlace();
  win.history.replaceState(null, '', formatPlace(written));
  const place = computed(currentPlace);
  const stopWatch: WatchStopHandle = watch(place, (now) => {
    if (applying > 0 || samePlace(now, parsePlace(win.location.hash))) return;
    const isNewPlace = now.screen !== written.screen || now.install !== written.install || now.archive !== written.archive;
    if (isNewPlace) win.history.pushState(null, '', formatPlace(now));
    else win.history.replaceState(null, '', formatPlace(now));
    written = now;
  });
  // Back, Forward, or a hash typed in: show that place.
  const onHashChange = () => {
    const target = parsePlace(win.location.hash);
    if (!target || samePlace(target, currentPlace())) return;
    written = target;
    void apply(target).then(() => {
      written = currentPlace();
      if (!samePlace(written, parsePlace(win.location.hash))) win.history.replaceState(null, '', formatPlace(written));
    });
  };
  win.addEventListener('hashchange', onHashChange);
  return () => {
    stopWatch();
    win.removeEventListener('hashchange', onHashChange);
  };
}
