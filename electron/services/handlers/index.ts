import { JobRegistry } from '../host/jobs.js';
import { PathAllowlist } from '../host/allowlist.js';
import { StudioHost } from '../host/host.js';
import type { CallTable } from '../host/types.js';
import { appHandlers, RecentInstalls, type AppFacts, type Dialogs } from './app.js';
import { archiveHandlers } from './archive.js';
import { DEFAULT_ISOLATION, type IsolationLimits } from '../isolated-archive.js';
import { jobHandlers } from './jobs.js';
import { installHandlers, InstallOpener, openedInstall } from './install.js';
import { InstallService } from '../install-service.js';
import { modsHandlers } from './mods.js';
import { assetHandlers } from './assets.js';
import { searchHandlers } from './search.js';
import { ModsService, freshMount, type MountProvider } from '../mods-service.js';
import type { EventName, Events } from '../../../shared/contract.js';
import { KnownInstalls, WritableWorkspaces } from '../host/reach.js';
import { LiveFolders } from '../live-install.js';
import { desktopHandlers, removeScratch, type Desktop, type DesktopPlaces } from './desktop.js';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The composition root shared by both shells: builds the services, the call table (one handler per
 * contract call, grouped by concern) and the host that validates and runs them.
 */
export interface StudioOptions {
  facts: AppFacts;
  /** Where recent installs are kept (null: in memory only). */
  recentFile: string | null;
  /** Native pickers (Electron only). */
  dialogs?: Dialogs | null;
  /** Mount the initial install in the background at start (default true). */
  warm?: boolean;
  /** Heap and time limits of the worker that opens and verifies picked archives. */
  isolation?: Partial<IsolationLimits>;
  /** What only the desktop shell can do (reveal, open a folder, drag out); null in the browser. */
  desktop?: Desktop | null;
  /** The home, Downloads and temporary folders (default: the user's own; tests give their own). */
  places?: Partial<DesktopPlaces>;
}

/** The services behind the table, for the host to close. */
export interface StudioServices {
  jobs: JobRegistry;
  installs: InstallService;
  opener: InstallOpener;
  mods: ModsService;
  recent: RecentInstalls;
  /** Workspaces this host created or the user picked: the only ones it writes. */
  writable: WritableWorkspaces;
  /** The installs this host opened, which nothing is extracted into and no workspace lies in. */
  known: KnownInstalls;
  /** Follows the open install and workspace on disk (re-mounts, edits from elsewhere). */
  live: LiveFolders;
  /** Temporary folders (dropped archives, drags), removed when the host closes. */
  scratch: Set<string>;
}

/** Events from services that run outside any call (watch builds) go through `emit`. */
export function createServices(options: StudioOptions, emit: EventSink): StudioServices {
  const installs = new InstallService();
  // The mod workflow reuses the studio's mount of an install when there is one (no second mount of
  // 60,000 entries per diff); otherwise it mounts afresh and closes afterwards, as the CLI does.
  const mount: MountProvider = async (root, options) => {
    const cached = await installs.get(root).catch(() => null);
    return cached && (options.game === undefined || options.game === cached.game)
      ? { install: cached.mounted, release: async () => {} }
      : freshMount(root, options);
  };
  const opener = new InstallOpener(installs);
  const mods = new ModsService({
    mount,
    onWatchStatus: (status) => {
      emit('watch', status);
      // A build into the followed install is re-mounted at once, not when the file watcher settles.
      if (status.state === 'ok' && status.target) void live.written(status.target);
    },
  });
  const live: LiveFolders = new LiveFolders({
    remount: (root, o) => opener.open(root, o, true),
    emit,
    // Another install takes the screens: the old one's watch-and-repack stops with it.
    onSwitch: () => mods.watches.closeAll(),
  });
  return {
    jobs: new JobRegistry(),
    installs,
    opener,
    mods,
    recent: new RecentInstalls(options.recentFile),
    writable: new WritableWorkspaces(),
    known: new KnownInstalls(),
    live,
    scratch: new Set(),
  };
}

export type EventSink = <E extends EventName>(event: E, payload: Events[E]) => void;

export function placesOf(options: StudioOptions): DesktopPlaces {
  const home = options.places?.home ?? homedir();
  return { home, downloads: options.places?.downloads ?? join(home, 'Downloads'), temp: options.places?.temp ?? tmpdir() };
}

export function createCallTable(options: StudioOptions, services: StudioServices): CallTable {
  const { jobs, recent, mods, installs } = services;
  const where = placesOf(options);
  const opened = openedInstall(installs, services.opener);
  return {
    ...appHandlers(options.facts, recent, options.dialogs ?? null, services.writable, options.desktop != null),
    ...jobHandlers(jobs),
    ...archiveHandlers({ ...DEFAULT_ISOLATION, ...options.isolation }, services.known, { temp: where.temp, scratch: services.scratch }),
    ...installHandlers(installs, services.opener, recent, services.known, services.live),
    ...searchHandlers(installs, services.opener),
    ...modsHandlers(mods, services.writable, services.known, services.live, where.home),
    ...assetHandlers(opened),
    ...desktopHandlers({ where, installs: services.known, desktop: options.desktop ?? null, opened, scratch: services.scratch }),
  };
}

/** A ready host; the initial root (the demo install, or the ROOT given on the command line) is allowed. */
export async function createStudioHost(options: StudioOptions): Promise<StudioHost> {
  let host: StudioHost | null = null;
  const services = createServices(options, (event, payload) => host?.emit(event, payload));
  const allowlist = new PathAllowlist();
  if (options.facts.initialRoot) {
    await allowlist.grant(options.facts.initialRoot, 'folder');
    await services.known.add(options.facts.initialRoot);
  }
  host = new StudioHost(createCallTable(options, services), { allowlist, jobs: services.jobs });
  host.onClose(() => services.live.close());
  host.onClose(() => services.mods.close());
  host.onClose(() => services.installs.closeAll());
  host.onClose(() => removeScratch(services.scratch));
  // The initial install is mounted while the page loads, so the renderer's first install.open finds it.
  if (options.facts.initialRoot && options.warm !== false) void services.opener.warm(options.facts.initialRoot);
  return host;
}
