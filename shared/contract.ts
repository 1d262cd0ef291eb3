import { z } from 'zod';
import type { ArchiveReport } from './archive-info.js';
import type {
  ConflictReport,
  DefinitionWinner,
  GameId,
  MergedTree,
  ModFolders,
  MountReport,
  MountStats,
  ResolveResult,
} from './vfs-types.js';
import type { ExportImpact, OverrideDiff, WatchStatus } from './mods-types.js';
import type { WireAssetView } from './assets/wire.js';
import type { GrepResult, InstallProblem, UnitRow } from './search-types.js';

/**
 * The one typed contract between the renderer and whoever serves it: the Electron main process (IPC) or
 * `modpak serve` (HTTP + server-sent events). Every call is named here with a zod schema for its request
 * (validated at runtime by the host before anything is acted on) and a TypeScript type for its response.
 * Both hosts register exactly these calls; the renderer's client is typed by them. Zod is used because a
 * schema library is generic work, and its schemas double as the request types.
 */

const gameId = z.enum(['ta', 'tak', 'quake', 'quake2', 'daikatana', 'halflife']);
const path = z.string().min(1).max(4096);
/** A file name alone: no folder, no separator of either kind. */
const fileName = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^\\/\0]+$/, 'a file name without folders');
const jobId = z.string().min(1).max(64).optional();
/** The most bytes one read may ask for (64 MB). */
const readLimit = z
  .number()
  .int()
  .positive()
  .max(64 << 20)
  .optional();
/** Bytes as base64 (the request body limit bounds the total). */
const base64 = z
  .string()
  .max(48 << 20)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64');
/** `mod`: Quake family, a mod folder under the game's folder, mounted over the base folder (id1, baseq2, data, valve). */
const modFolder = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^\\/\0]+$/, 'a folder name under the game folder')
  .refine((s) => s !== '.' && s !== '..', 'a folder name under the game folder');
const mountOptions = { game: gameId.optional(), disc: path.optional(), noDisc: z.boolean().optional(), mod: modFolder.optional() };

export const requests = {
  /** Facts about the host: version, capabilities, the install to open first (the demo by default). */
  'app.info': z.object({}),
  /** Open a game install (a folder the user picked or typed): mount it and report the mount order. */
  'install.open': z.object({ root: path, ...mountOptions }),
  'install.recent': z.object({}),
  'install.stats': z.object({ root: path }),
  'install.tree': z.object({ root: path }),
  'install.resolve': z.object({ root: path, path }),
  'install.defs': z.object({ root: path, kind: z.enum(['units', 'weapons', 'features']) }),
  'install.conflicts': z.object({ root: path }),
  /** A file's bytes for preview: the winner, or a given provider (archive null = loose). */
  'install.read': z.object({
    root: path,
    path,
    archive: z.string().nullable().optional(),
    maxBytes: readLimit,
  }),
  /** `overwrite`: the user confirmed extracting into a folder that already holds files (else 'conflict'). */
  'install.extract': z.object({
    root: path,
    paths: z.array(z.string()).max(1_000_000),
    target: path,
    overwrite: z.boolean().optional(),
    jobId,
  }),
  /** Search the winning text files for a regular expression (JavaScript syntax). */
  'install.grep': z.object({
    root: path,
    pattern: z.string().min(1).max(1024),
    ignoreCase: z.boolean().optional(),
    globs: z.array(z.string().max(512)).max(64).optional(),
    limit: z.number().int().positive().max(100_000).optional(),
    jobId,
  }),
  /** The TA sanity checks: duplicate UnitNumber and weapon ID, references to nothing. */
  'install.check': z.object({ root: path }),
  /** The units the game loads, with their main FBI fields. */
  'install.units': z.object({ root: path }),
  /** Quake family: the mod folders beside the base folder of an open game folder (the mod-folder picker). */
  'install.modFolders': z.object({ root: path, game: gameId.optional() }),
  /** A single archive of any format. */
  'archive.open': z.object({ path }),
  'archive.read': z.object({
    path,
    entry: z.string(),
    maxBytes: readLimit,
  }),
  'archive.extract': z.object({ path, target: path, globs: z.array(z.string()).optional(), overwrite: z.boolean().optional(), jobId }),
  /** A dropped archive's bytes (the browser gives no path): kept in a temporary copy and opened from there. */
  'archive.openBytes': z.object({ name: fileName, data: base64 }),
  'archive.verify': z.object({ path, jobId }),

  // A file as the studio's asset viewers show it: an install path (the winner, or the provider `archive`
  // names; null = the loose file), or an `entry` of the archive `file`. Exactly one of root and file.
  /** `paletteRoot` (with file and entry): an open install whose palettes and files stand under the archive's own. */
  'asset.view': z.object({
    root: path.optional(),
    path: path.optional(),
    archive: z.string().nullable().optional(),
    file: path.optional(),
    entry: z.string().min(1).max(4096).optional(),
    paletteRoot: path.optional(),
  }),
  /** Native pickers (Electron only; the browser uses folders.list). */
  'dialog.pickFolder': z.object({ title: z.string().optional() }),
  'dialog.pickFile': z.object({ title: z.string().optional() }),
  /**
   * The browser's folder browser: the subfolders (and with `files`, the game archives) of a folder under the
   * user's home or an opened install; no path: only the places to start from. Dot-folders are never shown.
   */
  'folders.list': z.object({ path: path.optional(), files: z.boolean().optional() }),
  /** Where an extraction goes by default: beside the archive `from` (or in Downloads), named after it or `name`. */
  'extract.defaultTarget': z.object({ from: path, name: fileName.optional() }),
  /** Electron only: show a file in the system's file manager (`open`: open a folder itself). */
  'shell.reveal': z.object({ path, open: z.boolean().optional() }),
  /** Electron only: extract install files to a temporary folder and drag them out to the desktop. */
  'shell.dragOut': z.object({
    root: path,
    paths: z.array(z.string().min(1).max(4096)).min(1).max(100_000),
    folder: z.string().max(4096).optional(),
  }),
  'jobs.cancel': z.object({ jobId: z.string() }),
  /** Mod workspaces. */
  'workspace.open': z.object({ dir: path, root: path }),
  'workspace.fromArchive': z.object({ archive: path, dir: path, root: path }),
  'workspace.files': z.object({ dir: path }),
  'workspace.override': z.object({ dir: path, root: path, path }),
  'workspace.readText': z.object({ dir: path, path }),
  /**
   * `expectedHash`: the content hash the editor loaded (readText's `hash`), or null for a file that must
   * not exist yet; the save is refused ('conflict') when the file on disk is no longer that. Left out, the
   * file is written whatever it holds (the user chose "keep mine").
   */
  'workspace.writeText': z.object({
    dir: path,
    path,
    text: z.string().max(16 << 20),
    expectedHash: z.string().max(128).nullable().optional(),
  }),
  'workspace.checkTdf': z.object({ text: z.string().max(16 << 20) }),
  /** Files dropped onto a workspace in the browser: each relative path with its bytes (base64). */
  'workspace.addFiles': z.object({
    dir: path,
    files: z
      .array(z.object({ path: z.string().min(1).max(4096), data: base64 }))
      .min(1)
      .max(10_000),
  }),
  /** Files or folders dropped onto a workspace in Electron (their paths on disk), copied in by name. */
  'workspace.addPaths': z.object({ dir: path, sources: z.array(path).min(1).max(1000) }),
  'mods.diff': z.object({ dir: path, root: path, game: gameId.optional() }),
  // `name`: the file name a workspace folder would be exported under (its rank depends on it).
  'mods.impact': z.object({ root: path, archive: path, name: fileName.optional(), mod: modFolder.optional() }),
  // `replaceOriginal`: the user confirmed replacing a file the install held before the studio wrote it (a backup NAME.bak is kept).
  /** `game`: the install's game, so a Daikatana `.pak` is written in Daikatana's layout. */
  'mods.export': z.object({
    dir: path,
    target: path,
    orderFrom: path.optional(),
    replaceOriginal: z.boolean().optional(),
    game: gameId.optional(),
    jobId,
  }),
  'watch.start': z.object({
    dir: path,
    target: path,
    debounceMs: z.number().int().min(0).max(60_000).optional(),
    replaceOriginal: z.boolean().optional(),
    game: gameId.optional(),
  }),
  'watch.stop': z.object({ dir: path }),
  'watch.status': z.object({ dir: path }),
} as const;

export type CallName = keyof typeof requests;
export type RequestOf<K extends CallName> = z.input<(typeof requests)[K]>;

export interface ArchiveListing {
  path: string;
  info: ArchiveReport;
  /** `type`: what the format says the entry is (WAD lump types: 'miptex', 'qpic', ...). */
  entries: { path: string; size: number; packedSize: number; method: string; dir?: true; type?: string }[];
}

export interface FilePreview {
  path: string;
  size: number;
  /** Base64 of the first `maxBytes` bytes (default 1 MiB); `truncated` when the file is longer. */
  data: string;
  truncated: boolean;
  archive: string | null;
}

export interface AssetViewResult {
  /** The file's own name. */
  name: string;
  /** Where the bytes came from ("anims/X.gaf from totala1.hpi"). */
  origin: string;
  size: number;
  /** The decoder's id ('gaf', 'pal', ...), or null when no asset decoder takes this file (view is null too). */
  decoder: string | null;
  /** The view in its wire form: decode with shared/assets/wire.ts decodeAssetView. */
  view: WireAssetView | null;
}

export interface FolderListing {
  /** The folder listed (null: only the places). */
  path: string | null;
  /** Its parent, when the parent may be listed too. */
  parent: string | null;
  folders: { name: string; path: string }[];
  /** Game archives in the folder (asked with `files`). */
  files: { name: string; path: string; size: number }[];
  /** Where to start: the home folder, Downloads, the opened installs. */
  places: { label: string; path: string }[];
}

export interface TdfCheck {
  ok: boolean;
  problems: { line: number; message: string; severity: 'error' | 'warning' }[];
}

export interface Responses {
  'app.info': {
    version: string;
    host: 'electron' | 'web';
    initialRoot: string | null;
    demo: boolean;
    cli: string | null;
    capabilities: { pickFolder: boolean; pickFile: boolean; desktop: boolean };
  };
  'install.open': MountReport & { root: string; stats: MountStats };
  'install.recent': string[];
  'install.stats': MountStats;
  'install.tree': MergedTree;
  'install.resolve': ResolveResult;
  'install.defs': DefinitionWinner[];
  'install.conflicts': ConflictReport;
  'install.read': FilePreview;
  'install.extract': { files: number; bytes: number; refused: string[] };
  'install.grep': GrepResult;
  'install.check': InstallProblem[];
  'install.units': UnitRow[];
  'install.modFolders': ModFolders;
  'archive.open': ArchiveListing;
  'archive.read': FilePreview;
  'archive.extract': { files: number; bytes: number; refused: string[] };
  'archive.openBytes': ArchiveListing;
  'asset.view': AssetViewResult;
  'archive.verify': {
    ok: boolean;
    files: number;
    bytes: number;
    errors: { path: string; message: string }[];
    warnings: { path: string | null; message: string }[];
  };
  'dialog.pickFolder': string | null;
  'dialog.pickFile': string | null;
  'folders.list': FolderListing;
  'extract.defaultTarget': { target: string; exists: boolean };
  'shell.reveal': { shown: string };
  'shell.dragOut': { files: number; dragged: string[] };
  'jobs.cancel': { cancelled: boolean };
  'workspace.open': { dir: string; root: string; files: string[] };
  /**
   * `exportName`: the file name to export under so that the re-export wins what the archive won (its own
   * name when it sits in the install: the export replaces it), or null to use the folder's name.
   */
  'workspace.fromArchive': { dir: string; root: string; files: string[]; exportName: string | null };
  'workspace.files': string[];
  'workspace.override': { path: string; from: string | null };
  /** `hash`: SHA-256 (hex) of the file's bytes as read. */
  'workspace.readText': { path: string; text: string; hash: string };
  'workspace.writeText': { path: string; bytes: number; hash: string };
  'workspace.checkTdf': TdfCheck;
  'workspace.addFiles': { added: string[] };
  'workspace.addPaths': { added: string[] };
  'mods.diff': OverrideDiff[];
  'mods.impact': ExportImpact;
  'mods.export': { target: string; files: number; bytes: number; size: number; durationMs: number };
  'watch.start': WatchStatus;
  'watch.stop': WatchStatus;
  'watch.status': WatchStatus;
}

export type ResponseOf<K extends CallName> = Responses[K];

/** The job id of the `progress` events of a re-mount after the install changed on disk. */
export const REMOUNT_JOB = 'install.remount';

/** Events pushed from the host to the renderer. */
export interface Events {
  progress: { jobId: string; done: number; total: number; label?: string };
  watch: WatchStatus;
  /**
   * The open install changed on disk (an archive appeared, changed or went; a loose file changed) and was
   * mounted again: the new mount order and stats, and the top-level paths that changed.
   */
  'install.changed': ResponseOf<'install.open'> & { changed: string[] };
  /** Files of the open workspace changed on disk: each path with its content hash now (null: gone). */
  'workspace.changed': { dir: string; files: { path: string; hash: string | null }[] };
}
export type EventName = keyof Events;

/** Whether the renderer still reaches its host (the browser transport knows from its event stream). */
export interface HostConnection {
  state: 'connected' | 'lost';
  /** What happened and how to reconnect, when lost. */
  message?: string;
}

/** The renderer's view of the host: one typed function per call, plus event subscription. */
export type StudioApi = {
  call<K extends CallName>(name: K, request: RequestOf<K>): Promise<ResponseOf<K>>;
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
  /** The connection to the host going and coming back (transports that can tell). */
  onConnection?(listener: (connection: HostConnection) => void): () => void;
};

/** How errors cross the boundary: a message a person can read, and a stable code. */
export interface ContractError {
  /** 'conflict': the file changed on disk since it was read (a save that would lose someone's edit). */
  code: 'bad-request' | 'not-allowed' | 'failed' | 'cancelled' | 'not-found' | 'conflict';
  message: string;
}

export type { GameId };
