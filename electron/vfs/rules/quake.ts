import type { GameId } from '../../../shared/vfs-types.js';
import { PAK_EXTENSIONS, compareNames, extensionOf } from '../names.js';
import { pathKey } from '../../../shared/paths.js';
import { nestedIgnored, type FolderListing, type GameRules, type MountPlan, type Probe } from './types.js';

/**
 * The Quake family loads `pak%i.pak` by number: Quake 1 from pak0 up to the first missing number, Quake 2
 * and Daikatana pak0–pak9 with gaps allowed. A higher number wins. Paks beat loose files in Quake and
 * Quake 2; loose files beat paks in Daikatana. File names match case-insensitively (PAK1.PAK counts).
 */
interface PakRule {
  game: GameId;
  /** The highest number loaded, or null for "up to the first missing one". */
  last: number | null;
  looseFirst: boolean;
}

/** The number of a `pakN.pak` name (N without leading zeros, as the engines print it), else null. */
export function pakNumber(name: string): number | null {
  const m = /^PAK(0|[1-9][0-9]{0,8})\.PAK$/.exec(pathKey(name));
  return m ? Number(m[1]) : null;
}

function pakRules(rule: PakRule): GameRules {
  const self: GameRules = {
    game: rule.game,
    isArchiveName: (name) => PAK_EXTENSIONS.has(extensionOf(name)),
    candidates: (listing) => listing.install.filter((n) => pakNumber(n) !== null).map((name) => ({ root: 'install', name })),
    plan(listing: FolderListing, probe: Probe): MountPlan {
      const plan: MountPlan = { game: rule.game, mounted: [], ignored: [], looseFirst: rule.looseFirst };
      const byNumber = new Map<number, string>();
      for (const name of [...listing.install].filter(self.isArchiveName).sort(compareNames)) {
        const n = pakNumber(name);
        if (n === null) plan.ignored.push({ archive: name, root: 'install', reason: 'not named pakN.pak, so the engine never opens it' });
        else if (byNumber.has(n))
          plan.ignored.push({
            archive: name,
            root: 'install',
            reason: `${byNumber.get(n)} already takes number ${n} (names differ only in case)`,
          });
        else byNumber.set(n, name);
      }
      const numbers = [...byNumber.keys()].sort((a, b) => a - b);
      let firstMissing = 0;
      while (byNumber.has(firstMissing)) firstMissing++;
      for (const n of numbers) {
        const name = byNumber.get(n)!;
        if (rule.last === null && n > firstMissing) {
          plan.ignored.push({
            archive: name,
            root: 'install',
            reason: `after the first missing number (pak${firstMissing}.pak): ${rule.game} stops there`,
          });
          continue;
        }
        if (rule.last !== null && n > rule.last) {
          plan.ignored.push({ archive: name, root: 'install', reason: `${rule.game} loads only pak0 to pak${rule.last}` });
          continue;
        }
        const status = probe('install', name);
        if (status.ok) plan.mounted.push({ archive: name, root: 'install', stage: 'pak' });
        else plan.ignored.push({ archive: name, root: 'install', reason: status.reason });
      }
      plan.mounted.reverse();
      plan.ignored.push(...nestedIgnored(listing, self.isArchiveName));
      return plan;
    },
  };
  return self;
}

export const quakeRules = pakRules({ game: 'quake', last: null, looseFirst: false });
export const quake2Rules = pakRules({ game: 'quake2', last: 9, looseFirst: false });
export const daikatanaRules = pakRules({ game: 'daikatana', last: 9, looseFirst: true });
/** Half-Life (GoldSrc) keeps Quake's pak search: pak0 up to the first missing number, paks over loose files. */
export const halflifeRules = pakRules({ game: 'halflife', last: null, looseFirst: false });
