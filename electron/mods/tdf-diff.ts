import type { TdfChange } from '../../shared/mods-types.js';
import { parseTdf, upperAscii, type TdfSection } from '../../shared/tdf/parse.js';

/**
 * A diff of two TDF/FBI texts by section and key, so that a modder reads "UNITINFO MaxDamage 120 → 250"
 * rather than a line diff. Sections are named by their path ("WEAPON1/DAMAGE"); names and keys compare the
 * way TA compares them (upper-case ASCII); the spelling shown is the new file's where both have it.
 * A name that appears twice among siblings gets "#2", "#3" so nothing is silently merged; within one
 * section the first entry of a key is the one TA reads, so later duplicates are left out, as the game does.
 */

interface FlatSection {
  path: string;
  keys: Map<string, { key: string; value: string }>;
}

function flatten(
  sections: readonly TdfSection[],
  into = new Map<string, FlatSection>(),
  prefix = '',
  keyPrefix = '',
): Map<string, FlatSection> {
  const seen = new Map<string, number>();
  for (const section of sections) {
    const upper = upperAscii(section.name);
    const count = (seen.get(upper) ?? 0) + 1;
    seen.set(upper, count);
    const suffix = count > 1 ? `#${count}` : '';
    const path = `${prefix}${section.name}${suffix}`;
    const key = `${keyPrefix}${upper}${suffix}`;
    const keys = new Map<string, { key: string; value: string }>();
    for (const entry of section.entries) {
      const k = upperAscii(entry.key);
      if (!keys.has(k)) keys.set(k, { key: entry.key, value: entry.value });
    }
    into.set(key, { path, keys });
    flatten(section.sections, into, `${path}/`, `${key}/`);
  }
  return into;
}

/** Every section and key added, removed or changed from `before` to `after`, in the new file's order. */
export function tdfChanges(before: string | Uint8Array, after: string | Uint8Array): TdfChange[] {
  const old = flatten(parseTdf(before).sections);
  const now = flatten(parseTdf(after).sections);
  const changes: TdfChange[] = [];
  for (const [id, section] of now) {
    const was = old.get(id);
    if (!was) {
      changes.push({ section: section.path, key: null, kind: 'added' });
      for (const { key, value } of section.keys.values()) changes.push({ section: section.path, key, kind: 'added', after: value });
      continue;
    }
    for (const [k, { key, value }] of section.keys) {
      const prev = was.keys.get(k);
      if (!prev) changes.push({ section: section.path, key, kind: 'added', after: value });
      else if (prev.value !== value) changes.push({ section: section.path, key, kind: 'changed', before: prev.value, after: value });
    }
    for (const [k, { key, value }] of was.keys) {
      if (!section.keys.has(k)) changes.push({ section: section.path, key, kind: 'removed', before: value });
    }
  }
  for (const [id, section] of old) {
    if (!now.has(id)) changes.push({ section: section.path, key: null, kind: 'removed' });
  }
  return changes;
}

/** One line per change, for the CLI: `UNITINFO: MaxDamage 120 → 250`. */
export function describeTdfChange(c: TdfChange): string {
  if (c.key === null) return `[${c.section}] section ${c.kind}`;
  if (c.kind === 'changed') return `[${c.section}] ${c.key}: ${c.before} → ${c.after}`;
  if (c.kind === 'added') return `[${c.section}] ${c.key} added: ${c.after}`;
  return `[${c.section}] ${c.key} removed (was ${c.before})`;
}
