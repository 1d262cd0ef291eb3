import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import type { CliContext } from '../context.js';
import { withAssetOptions, type AssetCliOptions } from '../asset-options.js';
import { writeFileAtomically } from '../../io/byte-sink.js';
import { openTnt, tntInfo, type OpenedTnt, type TntInfo } from '../../services/tnt-service.js';
import type { InstallService } from '../../services/install-service.js';
import { fail, FormatError } from '../../../shared/errors.js';
import { encodePng } from '../../../shared/assets/png.js';
import { deflateZlib } from '../../io/zlib.js';
import { indexedToRgba } from '../../../shared/assets/image.js';
import { drawTntMarkers, MAX_RENDER_SCALE, MIN_RENDER_SCALE, renderTnt } from '../../../shared/assets/ta/tnt-render.js';

/**
 * `modpak tnt info|minimap|render`: TA's maps, from disk or (with --install) from an install's layered
 * filesystem, whose winning palette, sister .ota and feature definitions are then used.
 * `tnt info --json` prints TntInfo (electron/services/tnt-service.ts; README, CLI block).
 */

/** `--scale`: a number (0.25, 2) or a fraction (1/4), within the render's limits. */
export function parseScale(value: string): number {
  const fraction = /^(\d+)\/(\d+)$/.exec(value);
  const n = fraction ? Number(fraction[1]) / Number(fraction[2]) : /^\d+(\.\d+)?$|^\.\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < MIN_RENDER_SCALE || n > MAX_RENDER_SCALE)
    throw new InvalidArgumentError(`a number from 1/64 to ${MAX_RENDER_SCALE} (0.25, 1/4, 2)`);
  return n;
}

async function writePng(target: string, png: Uint8Array): Promise<void> {
  const path = resolve(target);
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomically(path, (sink) => sink.write(png));
}

function printInfo(ctx: CliContext, origin: string, info: TntInfo): void {
  const row = (label: string, value: string) => ctx.print(`${label.padEnd(16)}${value}`);
  row('map', origin);
  row(
    'size',
    `${info.tileColumns} × ${info.tileRows} tiles (${info.width} × ${info.height} cells, ${info.pixelWidth} × ${info.pixelHeight} pixels)`,
  );
  row('sea level', String(info.seaLevel));
  row('heights', `${info.heights.min}–${info.heights.max}`);
  row('tiles', String(info.tiles));
  const stored = info.minimap.storedWidth !== info.minimap.width || info.minimap.storedHeight !== info.minimap.height;
  row(
    'minimap',
    `${info.minimap.width} × ${info.minimap.height}${stored ? ` (stored ${info.minimap.storedWidth} × ${info.minimap.storedHeight})` : ''}`,
  );
  row('void cells', String(info.voidCells));
  if (info.ota) {
    row('ota', `${info.ota.path}${info.ota.missionName ? ` (${info.ota.missionName})` : ''}`);
    row(
      'start positions',
      info.startPositions.length === 0 ? 'none' : info.startPositions.map((s) => `${s.player}: ${s.x}, ${s.z}`).join('   '),
    );
  } else {
    row('ota', 'none beside the map');
  }
  row(
    'features',
    `${info.features.length} kind${info.features.length === 1 ? '' : 's'}, ${info.features.reduce((n, f) => n + f.cells, 0)} cells`,
  );
  const width = Math.max(0, ...info.features.map((f) => f.name.length));
  for (const f of info.features) {
    let line = `  ${String(f.index).padStart(3)}  ${f.name.padEnd(width)}  ${String(f.cells).padStart(5)} cell${f.cells === 1 ? ' ' : 's'}`;
    if (f.definition === null) line += '  not defined in the install';
    else if (f.definition)
      line += `  ${f.definition.file} (${f.definition.archive ?? 'loose file'})${f.definition.shadowed.length ? `, hides ${f.definition.shadowed.length}` : ''}`;
    ctx.print(line);
  }
}

export function registerTntCommands(program: Command, ctx: CliContext, installs?: InstallService): void {
  const group = program.command('tnt').description("TA's TNT maps: facts, minimap, render");

  /** Open FILE, say its warnings, run `fn`, close. Decoder messages name the map themselves. */
  const withMap = async (file: string, opts: AssetCliOptions, fn: (map: OpenedTnt) => Promise<void>) => {
    ctx.file = file;
    let opened: OpenedTnt;
    try {
      opened = await openTnt(file, { install: opts.install, game: opts.game, mod: opts.mod, palette: opts.palette }, installs);
    } catch (error) {
      // The decoder's and the install's messages begin with the map's name already: say it once.
      if (error instanceof FormatError && error.message.startsWith(`${file}: `)) ctx.file = null;
      throw error;
    }
    try {
      for (const w of [...opened.warnings, ...opened.loaded.map.warnings]) ctx.warn(`${file}: ${w}`);
      for (const p of opened.loaded.ota?.problems ?? []) ctx.warn(`${opened.loaded.otaPath}: ${p}`);
      await fn(opened);
    } finally {
      await opened.close();
    }
  };
  const mapArgument = (cmd: Command) =>
    withAssetOptions(cmd.argument('<file>', 'a .tnt map (with --install: a path in the install)')).exitOverride();

  mapArgument(group.command('info'))
    .description('size, sea level, heights, tiles, minimap, start positions (.ota), features (their definitions under --install)')
    .option('--json', 'machine-readable output')
    .action(async (file: string, opts: AssetCliOptions & { json?: boolean }) =>
      withMap(file, opts, async ({ loaded, origin }) => {
        const info = tntInfo(loaded);
        if (opts.json) return ctx.printJson(info);
        printInfo(ctx, origin, info);
      }),
    );

  mapArgument(group.command('minimap'))
    .description('the minimap as the game shows it (its padding trimmed), as a PNG')
    .requiredOption('-t, --target <png>', 'the PNG to write')
    .action(async (file: string, opts: AssetCliOptions & { target: string }) =>
      withMap(file, opts, async ({ loaded }) => {
        const { minimap } = loaded.map;
        if (minimap.width === 0)
          fail('refused', `${file}: the minimap is empty (its ${minimap.storedWidth} × ${minimap.storedHeight} pixels are all padding)`);
        const palette = await loaded.palette();
        ctx.file = opts.target;
        await writePng(opts.target, encodePng(indexedToRgba(minimap.width, minimap.height, minimap.pixels, palette), deflateZlib));
        ctx.stderr.write(`modpak: ${opts.target}: minimap ${minimap.width} × ${minimap.height} (palette: ${palette.name})\n`);
      }),
    );

  mapArgument(group.command('render'))
    .description('the map drawn from its tiles, as a PNG; --markers adds features, void cells and start positions')
    .requiredOption('-t, --target <png>', 'the PNG to write')
    .option('--scale <n>', 'size factor: 0.25, 1/4, 2 (default 1: 32 pixels a tile)', parseScale, 1)
    .option('--markers', 'mark placed features, void cells and the .ota start positions')
    .action(async (file: string, opts: AssetCliOptions & { target: string; scale: number; markers?: boolean }) =>
      withMap(file, opts, async ({ loaded }) => {
        const palette = await loaded.palette();
        const image = renderTnt(loaded.map, palette, opts.scale);
        if (opts.markers) drawTntMarkers(image, loaded.map, { features: true, voids: true, startPositions: loaded.ota?.startPositions });
        ctx.file = opts.target;
        await writePng(opts.target, encodePng(image, deflateZlib));
        ctx.stderr.write(`modpak: ${opts.target}: ${image.width} × ${image.height} (palette: ${palette.name})\n`);
      }),
    );
}
