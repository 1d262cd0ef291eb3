/**
 * What each format says about one archive (`Archive.info()`): one shape per format, told apart by
 * `format` (and HPI's `version`), so every consumer (the CLI's `info`, the Archive screen) can show every
 * fact by name. Facts only: what a game makes of them (TA 3.1c's mount verdict) is the VFS's rule, added
 * in `ArchiveReport`.
 */
import type { MountStatus } from './vfs-types.js';

export type FormatId = 'hpi' | 'pak' | 'sin' | 'daikatana' | 'pangya' | 'wad';

interface Counts {
  files: number;
  dirs: number;
  /** Total unpacked bytes of all files. */
  bytes: number;
}

/** Total Annihilation's HPI v1 (.hpi .ufo .ccx .gp3). */
export interface HpiV1Info extends Counts {
  format: 'hpi';
  version: 1;
  /** The header's HeaderKey (0 = no cipher). */
  key: number;
  /** The Cavedog trailer's text when it is the file's last 36 bytes, else null. */
  trailer: string | null;
  /** When a trailer appears near the end but not at it: how many bytes follow it. */
  bytesAfterTrailer: number | null;
  /** HeaderKey 0xFF only: whether the directory reads unenciphered (as TA reads it); null otherwise. */
  directoryReadsPlain: boolean | null;
}

/** TA: Kingdoms' HPI v2. */
export interface HpiV2Info extends Counts {
  format: 'hpi';
  version: 2;
  /** Whether the Last78 verification block is present. */
  last78: boolean;
}

/** Quake / Half-Life / Quake 2 PAK (64-byte entries) and SiN PAK (128-byte entries). */
export interface PakInfo extends Counts {
  format: 'pak' | 'sin';
  entrySize: number;
}

export interface DaikatanaInfo extends Counts {
  format: 'daikatana';
  entrySize: number;
  /** Entries stored with Daikatana's compression. */
  compressed: number;
}

export type PangyaRegion = 'us' | 'jp' | 'th' | 'eu' | 'id' | 'kr';

export interface PangyaInfo extends Counts {
  format: 'pangya';
  cipher: 'xtea' | 'xor';
  /** The XTEA region key that deciphers the table (null for XOR). */
  region: PangyaRegion | null;
  tableOffset: number;
  /** Other region keys that decipher it as well. */
  regionCandidates?: PangyaRegion[];
  note?: string;
}

/** Quake's WAD2 and Half-Life's WAD3 texture archives. */
export interface WadInfo extends Counts {
  format: 'wad';
  version: string;
  /** How many lumps of each type ('miptex', 'qpic', ...). */
  lumpTypes: Record<string, number>;
}

export type ArchiveInfo = HpiV1Info | HpiV2Info | PakInfo | DaikatanaInfo | PangyaInfo | WadInfo;

/** An archive's facts with what the program concludes from them: `modpak info` and the Archive screen. */
export type ArchiveReport = ArchiveInfo & {
  /** HPI only: whether Total Annihilation 3.1c would mount the file, and why. */
  taMount?: MountStatus;
  /** Other formats whose layout also fits the bytes (only for the shared 'PACK' magic). */
  alsoMatches?: FormatId[];
  note?: string;
  /** Non-fatal oddities found while reading the directory. */
  warnings?: string[];
};
