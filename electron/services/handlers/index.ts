import { JobRegistry } from '../host/jobs.js';
import { PathAllowlist } from '../host/allowlist.js';
import { StudioHost } from '../host/host.js';
import type { CallTable } from '../host/types.js';
import { appHandlers, RecentInstalls, type AppFacts, type Dialogs } from './app.js';
import { archiveHandlers } from './archive.js';
import { jobHandlers } from './jobs.js';
import { pendingHandlers } from './pending.js';

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
}

export function createCallTable(options: StudioOptions, jobs: JobRegistry): CallTable {
  const recent = new RecentInstalls(options.recentFile);
  return {
    ...appHandlers(options.facts, recent, options.dialogs ?? null),
    ...jobHandlers(jobs),
    ...archiveHandlers(),
    ...pendingHandlers(['install.open', 'install.stats', 'install.tree', 'install.resolve', 'install.defs', 'install.conflicts', 'install.read', 'install.extract'], 'the layered filesystem service'),
    ...pendingHandlers(
      ['workspace.open', 'workspace.fromArchive', 'workspace.files', 'workspace.override', 'workspace.readText', 'workspace.writeText', 'workspace.checkTdf', 'mods.diff', 'mods.impact', 'mods.export', 'watch.start', 'watch.stop', 'watch.status'],
      'the mod workflow service',
    ),
  };
}

/** A ready host; the initial root (the demo install, or the ROOT given on the command line) is allowed. */
export async function createStudioHost(options: StudioOptions): Promise<StudioHost> {
  const jobs = new JobRegistry();
  const allowlist = new PathAllowlist();
  if (options.facts.initialRoot) await allowlist.grant(options.facts.initialRoot, 'folder');
  return new StudioHost(createCallTable(options, jobs), { allowlist, jobs });
}
