import { pathKey } from '../../shared/paths.js';

/**
 * Archive file names as the games compare them: upper-case ASCII, so `_extra.ufo` sorts after `zeta.ufo`
 * ('_' is 0x5F, after 'Z') and `AFark.ufo` before `zeta.ufo`. Ties (names differing only in case, possible
 * on a case-sensitive disk) fall back to the raw name so the order is still total and deterministic.
 */
export function compareNames(a: string, b: string): number {
  const ka = pathKey(a);
  const kb = pathKey(b);
  if (ka !== kb) return ka < kb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortNames(names: Iterable<string>): string[] {
  return [...names].sort(compareNames);
}

export { extensionOf } from '../../shared/file-kinds.js';

/** The archives TA and TA: Kingdoms mount: byte-identical HPI containers under four extensions. */
export const HPI_EXTENSIONS: ReadonlySet<string> = new Set(['HPI', 'UFO', 'CCX', 'GP3']);
export const PAK_EXTENSIONS: ReadonlySet<string> = new Set(['PAK']);
