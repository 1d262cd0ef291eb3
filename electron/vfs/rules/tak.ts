import { HPI_EXTENSIONS, compareNames, extensionOf } from '../names.js';
import { nestedIgnored, type FolderListing, type GameRules, type MountPlan, type Probe } from './types.js';

/**
 * TA: Kingdoms: every archive at the top of the install, ordered by extension then name (upper-case
 * ASCII), each later one overriding the earlier ones (so IPData.hpi overlays data.hpi). Loose files win.
 */
function overlayOrder(a: string, b: string): number {
  const ea = extensionOf(a);
  const eb = extensionOf(b);
  if (ea !== eb) return ea < eb ? -1 : 1;
  return compareNames(a, b);
}

export const takRules: GameRules = {
  game: 'tak',
  isArchiveName: (name) => HPI_EXTENSIONS.has(extensionOf(name)),
  candidates: (listing) => listing.install.filter(takRules.isArchiveName).map((name) => ({ root: 'install', name })),
  plan(listing: FolderListing, probe: Probe): MountPlan {
    const plan: MountPlan = { game: 'tak', mounted: [], ignored: [], looseFirst: true };
    const layered = listing.install.filter(takRules.isArchiveName).sort(overlayOrder);
    for (const name of layered) {
      const status = probe('install', name);
      if (status.ok) plan.mounted.push({ archive: name, root: 'install', stage: 'overlay' });
      else plan.ignored.push({ archive: name, root: 'install', reason: status.reason });
    }
    // Layered bottom-up; reported highest priority first.
    plan.mounted.reverse();
    plan.ignored.push(...nestedIgnored(listing, takRules.isArchiveName));
    return plan;
  },
};
