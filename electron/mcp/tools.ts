import { z } from 'zod';
import picomatch from 'picomatch';
import { requests, type CallName, type FilePreview, type ResponseOf } from '../../shared/contract.js';
import { decodeTdf, parseTdf } from '../../shared/tdf/parse.js';
import { decompileCob } from '../../shared/assets/ta/cob/index.js';
import { decodeAssetView } from '../../shared/assets/wire.js';
import { encodePng } from '../../shared/assets/png.js';
import { deflateZlib } from '../io/zlib.js';
import type { AssetView, ImagesView } from '../../shared/assets/view.js';
import type { GameId } from '../../shared/vfs-types.js';

/** The picture views of an asset, sections included, in the order the studio shows them. */
function imagesOf(view: AssetView): ImagesView[] {
  if (view.kind === 'images') return [view];
  if (view.kind === 'sections') return view.sections.flatMap((s) => imagesOf(s.view));
  return [];
}

/**
 * The tools `modpak mcp` offers an assistant. Each is one contract call of the studio's host (so every
 * request is validated by the contract's own zod schema and goes through the same path checks), or a
 * small view over one (a text decode, a TDF parse, a glob over the merged tree). The opened install is
 * fixed by the command line, so no tool takes a `root`. Names and descriptions are part of the contract.
 */

export interface ToolHost {
  /** The opened install (absolute). */
  root: string;
  /** The opened install's game (--game, else the one detected): what `mod_export` writes for when not told. */
  game?: GameId;
  /** Run a contract call; throws an Error with the contract's message when the call is refused or fails. */
  call<K extends CallName>(name: K, request: Record<string, unknown>): Promise<ResponseOf<K>>;
  /** Throws unless `path` lies inside the install or a folder named by --allow-write. */
  checkReadable(path: string): Promise<string>;
  /** Throws unless `path` lies inside a folder named by --allow-write. */
  checkWritable(path: string): Promise<string>;
}

export interface ToolResult {
  /** JSON-serialisable answer, sent as text (pretty JSON) and as structured content. */
  json?: unknown;
  /** Plain text, for sources (BOS, TDF) an assistant reads as they are. */
  text?: string;
  /** A picture, base64 PNG. */
  image?: { data: string; mimeType: 'image/png' };
}

export interface ToolDefinition {
  name: string;
  description: string;
  input: z.ZodObject;
  /** Writes files: offered only when --allow-write names a folder. */
  writes?: boolean;
  run(host: ToolHost, args: Record<string, unknown>): Promise<ToolResult>;
}

/** A contract request's schema without the fields the server fills in itself. */
const withoutRoot = <K extends CallName>(name: K, ...more: string[]) => {
  const schema = requests[name] as unknown as z.ZodObject;
  const keep = Object.fromEntries(Object.entries(schema.shape).filter(([k]) => !['root', 'jobId', ...more].includes(k)));
  return z.object(keep);
};

const decodeText = (base64: string) => decodeTdf(Buffer.from(base64, 'base64'));

/** Text files larger than this are cut, with a note: an assistant's context is not the place for 16 MB. */
const TEXT_LIMIT = 256 << 10;

/** A file's text as read (Windows-1252), with a note when it was cut at TEXT_LIMIT. */
const textOf = (file: FilePreview) =>
  decodeText(file.data) + (file.truncated ? `\n[cut: the first ${TEXT_LIMIT} of ${file.size} bytes]` : '');

const callTool = <K extends CallName>(name: string, call: K, description: string, extraDrop: string[] = []): ToolDefinition => ({
  name,
  description,
  input: withoutRoot(call, ...extraDrop),
  run: async (host, args) => ({ json: await host.call(call, { root: host.root, ...args }) }),
});

export const tools: ToolDefinition[] = [
  callTool(
    'install_open',
    'install.open',
    'Open the install: the game detected, the mount order (highest priority first) and every ignored archive with its reason.',
  ),
  callTool(
    'install_resolve',
    'install.resolve',
    'Which archive wins a path (case-insensitive), and every provider it hides, in priority order.',
  ),
  {
    name: 'install_find',
    description: 'Paths of the install matching a glob (case-insensitive, e.g. "units/*.fbi"), each with the archive that wins it.',
    input: z.object({ glob: z.string().min(1).max(512), limit: z.number().int().positive().max(10_000).optional() }),
    run: async (host, args) => {
      const tree = await host.call('install.tree', { root: host.root });
      const match = picomatch(String(args.glob), { nocase: true, dot: true });
      const limit = typeof args.limit === 'number' ? args.limit : 1000;
      const found: { path: string; archive: string | null }[] = [];
      for (let i = 0; i < tree.paths.length && found.length < limit; i++) {
        const path = tree.paths[i]!;
        if (match(path)) found.push({ path, archive: tree.archives[tree.winners[i]!] ?? null });
      }
      return { json: found };
    },
  },
  {
    name: 'install_read_text',
    description: "The text of a file as the game loads it (the winner, or a given archive's copy), decoded as Windows-1252.",
    input: withoutRoot('install.read', 'maxBytes'),
    run: async (host, args) => {
      const file = await host.call('install.read', { root: host.root, ...args, maxBytes: TEXT_LIMIT });
      return { text: textOf(file) };
    },
  },
  {
    name: 'install_tdf',
    description:
      "A TDF/FBI/OTA file of the install parsed to sections and keys (the winner, or a given archive's copy), with any syntax problems.",
    input: withoutRoot('install.read', 'maxBytes'),
    run: async (host, args) => {
      const file = await host.call('install.read', { root: host.root, ...args });
      return { json: parseTdf(Buffer.from(file.data, 'base64')) };
    },
  },
  callTool('install_defs', 'install.defs', 'Unit, weapon or feature definitions: which file wins each name, and what it hides.'),
  callTool('install_conflicts', 'install.conflicts', 'Paths provided by more than one archive, and definitions defined more than once.'),
  callTool(
    'install_check',
    'install.check',
    'TA sanity checks: units sharing a UnitNumber, weapons sharing an ID, FBI references (model, weapons, corpse, sounds) to nothing.',
  ),
  callTool(
    'install_grep',
    'install.grep',
    "Search the text files the game loads (TDF, FBI, configs, scripts' source) for a regular expression: path, winning archive, line.",
  ),
  {
    name: 'asset_preview',
    description:
      'A picture of an asset of the install as PNG (a GAF frame, a palette, a PCX/LMP/WAL/SPR, a TNT map render or minimap, BSP textures), with its facts; choose a group (sequence, mip level) and frame.',
    input: withoutRoot('asset.view', 'file', 'entry').extend({
      path: requests['install.read'].shape.path,
      group: z.union([z.number().int().min(0), z.string().min(1).max(256)]).optional(),
      frame: z.number().int().min(0).optional(),
    }),
    run: async (host, args) => {
      const answer = await host.call('asset.view', {
        root: host.root,
        path: args.path,
        ...(args.archive !== undefined ? { archive: args.archive } : {}),
      });
      if (!answer.view) throw new Error(`${String(args.path)}: not an asset this program can show (read it with install_read_text)`);
      const view = decodeAssetView(answer.view);
      const facts = [
        `${view.format} · ${answer.origin}`,
        ...view.facts.map((f) => `${f.label}: ${f.value}`),
        ...view.warnings.map((w) => `warning: ${w}`),
      ];
      const groups = imagesOf(view).flatMap((v) => v.groups.map((g) => ({ group: g, palette: v.palette })));
      if (groups.length === 0)
        return { text: [...facts, `(a ${view.kind} view: no picture to show here; the studio shows it)`].join('\n') };
      const wanted = args.group;
      const found =
        typeof wanted === 'string'
          ? groups.find((g) => g.group.name.toLowerCase() === wanted.toLowerCase())
          : groups[typeof wanted === 'number' ? wanted : 0];
      if (!found)
        throw new Error(`no picture group ${JSON.stringify(wanted)}; the groups are ${groups.map((g) => g.group.name).join(', ')}`);
      const index = typeof args.frame === 'number' ? args.frame : 0;
      const frame = found.group.frames[index];
      if (!frame) throw new Error(`${found.group.name} has ${found.group.frames.length} frame(s); frame ${index} does not exist`);
      const lines = [
        ...facts,
        `group ${found.group.name}, frame ${index} of ${found.group.frames.length}, ${frame.image.width} × ${frame.image.height}${found.palette ? `, palette ${found.palette}` : ''}`,
        `groups: ${groups.map((g) => g.group.name).join(', ')}`,
      ];
      return {
        text: lines.join('\n'),
        image: { data: Buffer.from(encodePng(frame.image, deflateZlib)).toString('base64'), mimeType: 'image/png' },
      };
    },
  },
  {
    name: 'cob_decompile',
    description: "A unit script (.cob) of the install decompiled to BOS source (the winner, or a given archive's copy).",
    input: withoutRoot('install.read', 'maxBytes'),
    run: async (host, args) => {
      const file = await host.call('install.read', { root: host.root, ...args, maxBytes: 16 << 20 });
      return { text: decompileCob(Buffer.from(file.data, 'base64'), String(args.path)) };
    },
  },
  {
    name: 'archive_info',
    description:
      'What one archive (inside the install or an allowed folder) is: format, counts, version, cipher, whether TA 3.1c would mount it.',
    input: z.object({ path: requests['archive.open'].shape.path }),
    run: async (host, args) => {
      await host.checkReadable(String(args.path));
      return { json: (await host.call('archive.open', { path: args.path })).info };
    },
  },
  {
    name: 'archive_list',
    description: 'The entries of one archive in stored order (path, size, packed size, method), optionally filtered by a glob.',
    input: z.object({ path: requests['archive.open'].shape.path, glob: z.string().max(512).optional() }),
    run: async (host, args) => {
      await host.checkReadable(String(args.path));
      const listing = await host.call('archive.open', { path: args.path });
      const match = typeof args.glob === 'string' ? picomatch(args.glob, { nocase: true, dot: true }) : () => true;
      return { json: listing.entries.filter((e) => match(e.path)) };
    },
  },
  {
    name: 'archive_read_text',
    description: 'The text of one file inside one archive, decoded as Windows-1252.',
    input: withoutRoot('archive.read', 'maxBytes'),
    run: async (host, args) => {
      await host.checkReadable(String(args.path));
      await host.call('archive.open', { path: args.path });
      const file = await host.call('archive.read', { ...args, maxBytes: TEXT_LIMIT });
      return { text: textOf(file) };
    },
  },
  {
    name: 'mod_diff',
    description:
      'What a mod folder changes against the install: added, modified and unchanged files, what each shadows, and TDF key changes.',
    input: withoutRoot('mods.diff'),
    run: async (host, args) => {
      await host.checkReadable(String(args.dir));
      return { json: await host.call('mods.diff', { root: host.root, ...args }) };
    },
  },
  {
    name: 'mod_impact',
    description:
      'Where an archive would rank if copied into the install, which paths it would win, and which archives would still beat it.',
    input: withoutRoot('mods.impact'),
    run: async (host, args) => {
      await host.checkReadable(String(args.archive));
      return { json: await host.call('mods.impact', { root: host.root, ...args }) };
    },
  },
  {
    name: 'mod_override',
    description: "Copy the install's winning bytes of a path into a mod folder (named by --allow-write), ready to edit.",
    input: withoutRoot('workspace.override'),
    writes: true,
    run: async (host, args) => {
      await host.checkWritable(String(args.dir));
      await host.call('workspace.open', { dir: args.dir, root: host.root });
      return { json: await host.call('workspace.override', { root: host.root, ...args }) };
    },
  },
  {
    name: 'mod_write_text',
    description: 'Write a text file (Windows-1252) into a mod folder named by --allow-write.',
    input: withoutRoot('workspace.writeText'),
    writes: true,
    run: async (host, args) => {
      await host.checkWritable(String(args.dir));
      await host.call('workspace.open', { dir: args.dir, root: host.root });
      return { json: await host.call('workspace.writeText', args) };
    },
  },
  {
    name: 'mod_export',
    description:
      "Pack a mod folder into an archive (written to a temporary file, then renamed into place); both must lie in folders named by --allow-write. `game` (default: the install's) decides a .pak's layout: Daikatana's own, else Quake's.",
    input: withoutRoot('mods.export'),
    writes: true,
    run: async (host, args) => {
      await host.checkWritable(String(args.dir));
      await host.checkWritable(String(args.target));
      await host.call('workspace.open', { dir: args.dir, root: host.root });
      // As the studio's export does: the open install's game unless the caller names one.
      const game = args.game ?? host.game;
      return { json: await host.call('mods.export', { ...args, ...(game ? { game } : {}) }) };
    },
  },
];
