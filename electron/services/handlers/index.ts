import { JobRegistry } from '../host/jobs.js';
import { PathAllowlist } from '../host/allowlist.js';
import { StudioHost } from '../host/host.js';
import type { CallTable } from '../host/types.js';
import { appHandlers, RecentInstalls, type AppFacts, type Dialogs } from './app.js';
import { archiveHandlers } from './archive.js';
import { DEFAULT_ISOLATION, type IsolationLimits } from '../isolated-archive.js';
import { jobHandlers } from './jobs.js';
import { installHandlers, openedInstall } from './install.js';
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
import { OpenArchiveCache } from '../open-archives.js';

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
  /** Archives kept open for the Archive screen's previews. */
  archives: OpenArchiveCache;
}

/** Events from services that run outside any call (watch builds) go through `emit`. */
export function createServices(options: StudioOptions, emit: EventSink): StudioServices {
  const installs = new InstallService();
  // The mod workflow reuses the studio's mount of an install when there is one (no second mount of
  // 60,000 entries per diff); otherwise it mounts afresh and closes afterwards, as the CLI does.
  // A hypothetical mount (impact) takes the archives from the cached mount's pool: only its own is opened.
  const mount: MountProvider = async (root, options) => {
    const cached = await installs.cachedFor(root, options);
    return cached ? { install: cached.install, pool: cached.pool, release: async () => {} } : freshMount(root, options);
  };
  const mods = new ModsService({
    mount,
    onWatchStatus: (status) => {
      emit('watch', status);
      // A build into the followed install is re-mounted at once, not when the file watcher settles.
      if (status.state === 'ok' && status.target) void live.written(status.target);
    },
  });
  const live: LiveFolders = new LiveFolders({
    remount: (root, o) => installs.open(root, { ...o, refresh: true }),
    emit,
    // Another install takes the screens: the old one's watch-and-repack stops with it.
    onSwitch: () => mods.watches.closeAll(),
  });
  return {
    jobs: new JobRegistry(),
    installs,
    mods,
    recent: new RecentInstalls(options.recentFile),
    writable: new WritableWorkspaces(),
    known: new KnownInstalls(),
    live,
    scratch: new Set(),
    archives: new OpenArchiveCache(),
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
  const opened = openedInstall(installs);
  return {
    ...appHandlers(options.facts, recent, options.dialogs ?? null, services.writable, options.desktop != null),
    ...jobHandlers(jobs),
    ...archiveHandlers({ ...DEFAULT_ISOLATION, ...options.isolation }, services.known, services.archives, {
      temp: where.temp,
      scratch: services.scratch,
    }),
    ...installHandlers(installs, recent, services.known, services.live),
    ...searchHandlers(installs),
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
  host.onClose(() => services.archives.close());
  // The initial install is mounted while the page loads, so the renderer's first install.open finds it.
  if (options.facts.initialRoot && options.warm !== false) void services.installs.warm(options.facts.initialRoot);
  return host;
}
