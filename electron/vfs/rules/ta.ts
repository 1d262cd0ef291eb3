import { HPI_EXTENSIONS, extensionOf, sortNames } from '../names.js';
import { pathKey } from '../../../shared/paths.js';
import { nestedIgnored, type Candidate, type FolderListing, type GameRules, type MountPlan, type Probe } from './types.js';

/**
 * Total Annihilation 3.1c, as the HPI seed states it: only the top level of the install; rev31.gp3 (other
 * .gp3 ignored) → every *.ccx → every *.ufo → the first ten *.hpi that pass the mount test → every *.hpi at
 * the top of the disc, without limit. Names in upper-case ASCII order within a group. An archive that fails
 * the mount test is ignored and takes no slot. When the install folder is the disc (the default; a GOG
 * install keeps the disc's archives there), the disc stage is the .hpi files past the ten slots, so nothing
 * is mounted twice.
 */
export const HPI_SLOTS = 10;

const PATCH = 'REV31.GP3';

function byExtension(names: readonly string[], ext: string): string[] {
  return sortNames(names.filter((n) => extensionOf(n) === ext));
}

export const taRules: GameRules = {
  game: 'ta',

  isArchiveName: (name) => HPI_EXTENSIONS.has(extensionOf(name)),

  candidates(listing: FolderListing): Candidate[] {
    const install = listing.install.filter((n) => HPI_EXTENSIONS.has(extensionOf(n)) && (extensionOf(n) !== 'GP3' || pathKey(n) === PATCH));
    const out: Candidate[] = install.map((name) => ({ root: 'install', name }));
    if (Array.isArray(listing.disc)) for (const name of byExtension(listing.disc, 'HPI')) out.push({ root: 'disc', name });
    return out;
  },

  plan(listing: FolderListing, probe: Probe): MountPlan {
    const plan: MountPlan = { game: 'ta', mounted: [], ignored: [], looseFirst: true };
    const ignore = (root: 'install' | 'disc', archive: string, reason: string) => plan.ignored.push({ archive, root, reason });

    let patched = false;
    for (const name of byExtension(listing.install, 'GP3')) {
      if (pathKey(name) !== PATCH) ignore('install', name, 'only rev31.gp3 is mounted; other .gp3 files are ignored');
      else if (patched) ignore('install', name, 'rev31.gp3 is already mounted (this name differs only in case)');
      else {
        const status = probe('install', name);
        if (status.ok) {
          plan.mounted.push({ archive: name, root: 'install', stage: 'gp3' });
          patched = true;
        } else ignore('install', name, status.reason);
      }
    }
    for (const [ext, stage] of [
      ['CCX', 'ccx'],
      ['UFO', 'ufo'],
    ] as const) {
      for (const name of byExtension(listing.install, ext)) {
        const status = probe('install', name);
        if (status.ok) plan.mounted.push({ archive: name, root: 'install', stage });
        else ignore('install', name, status.reason);
      }
    }
    const overflow: string[] = [];
    let slots = 0;
    for (const name of byExtension(listing.install, 'HPI')) {
      const status = probe('install', name);
      if (!status.ok) ignore('install', name, status.reason);
      else if (slots < HPI_SLOTS) {
        plan.mounted.push({ archive: name, root: 'install', stage: 'hpi' });
        slots++;
      } else overflow.push(name);
    }
    if (listing.disc === 'install') {
      for (const name of overflow) plan.mounted.push({ archive: name, root: 'install', stage: 'disc' });
    } else {
      const why = listing.disc === null ? 'and the disc is off' : 'and the disc is another folder';
      for (const name of overflow) ignore('install', name, `past the ten *.hpi slots ${why}`);
      if (listing.disc !== null) {
        for (const name of byExtension(listing.disc, 'HPI')) {
          const status = probe('disc', name);
          if (status.ok) plan.mounted.push({ archive: name, root: 'disc', stage: 'disc' });
          else ignore('disc', name, status.reason);
        }
      }
    }
    plan.ignored.push(...nestedIgnored(listing, taRules.isArchiveName));
    return plan;
  },
};
