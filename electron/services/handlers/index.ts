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
  };
}

export type EventSink = <E extends EventName>(event: E, payload: Events[E]) => void;

export function createCallTable(options: StudioOptions, services: StudioServices): CallTable {
  const { jobs, recent, mods, installs } = services;
  return {
    ...appHandlers(options.facts, recent, options.dialogs ?? null, services.writable),
    ...jobHandlers(jobs),
    ...archiveHandlers({ ...DEFAULT_ISOLATION, ...options.isolation }, services.known),
    ...installHandlers(installs, services.opener, recent, services.known, services.live),
    ...searchHandlers(installs, services.opener),
    ...modsHandlers(mods, services.writable, services.known, services.live),
    ...assetHandlers(openedInstall(installs, services.opener)),
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
  // The initial install is mounted while the page loads, so the renderer's first install.open finds it.
  if (options.facts.initialRoot && options.warm !== false) void services.opener.warm(options.facts.initialRoot);
  return host;
}
