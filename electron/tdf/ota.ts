import type { StartPosition } from '../../shared/assets/ta/tnt-render.js';
import { findSection, getValue, parseTdf, upperAscii, type TdfSection } from '../../shared/tdf/parse.js';

/**
 * A map's .ota (the TDF beside its .tnt): `[GlobalHeader]` with the mission name and planet, and one
 * `[Schema N]` per game type, whose `[specials]` hold `[specialN] { specialwhat=StartPosK; XPos; ZPos }`,
 * the start position of player K in map pixels. Multiplayer maps give the same positions in every
 * schema; the first schema (`[Schema 0]`) is the one read here.
 */
export interface OtaInfo {
  missionName: string | null;
  planet: string | null;
  /** The schema read ("Schema 0"), or null when the file has none. */
  schema: string | null;
  /** By player number. */
  startPositions: StartPosition[];
  /** Why a start position or the file's structure was not understood, one line each. */
  problems: string[];
}

const START = /^startpos(\d+)$/i;

/** A decimal number, or null for anything else (an empty value is not 0). */
function coordinate(value: string | undefined): number | null {
  return value !== undefined && /^[-+]?\d+(\.\d*)?$/.test(value) ? Number(value) : null;
}

export function readOta(bytes: Uint8Array): OtaInfo {
  const doc = parseTdf(bytes);
  const problems = doc.problems.filter((p) => p.severity === 'error').map((p) => `line ${p.line}: ${p.message}`);
  const header = findSection(doc.sections, 'GlobalHeader');
  if (!header)
    return { missionName: null, planet: null, schema: null, startPositions: [], problems: [...problems, 'no [GlobalHeader] section'] };
  const schema = findSection(header.sections, 'Schema 0') ?? header.sections.find((s) => upperAscii(s.name).startsWith('SCHEMA'));
  const info: OtaInfo = {
    missionName: getValue(header, 'missionname') ?? null,
    planet: getValue(header, 'planet') ?? null,
    schema: schema?.name ?? null,
    startPositions: [],
    problems,
  };
  if (!schema) {
    problems.push('no [Schema 0] in [GlobalHeader]');
    return info;
  }
  const specials = findSection(schema.sections, 'specials');
  for (const special of specials?.sections ?? []) readSpecial(special, info);
  info.startPositions.sort((a, b) => a.player - b.player);
  return info;
}

function readSpecial(special: TdfSection, info: OtaInfo): void {
  const what = getValue(special, 'specialwhat');
  const match = what ? START.exec(what) : null;
  if (!match) return;
  const player = Number(match[1]);
  const x = coordinate(getValue(special, 'XPos'));
  const z = coordinate(getValue(special, 'ZPos'));
  if (x === null || z === null) {
    info.problems.push(`line ${special.line}: [${special.name}] ${what} has no numeric XPos/ZPos`);
    return;
  }
  if (info.startPositions.some((s) => s.player === player)) {
    info.problems.push(`line ${special.line}: [${special.name}] repeats ${what} (the first is kept)`);
    return;
  }
  info.startPositions.push({ player, x, z });
}
