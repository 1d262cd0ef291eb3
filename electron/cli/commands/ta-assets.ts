import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { withAsset, withAssetOptions, type AssetCliOptions } from '../asset-options.js';
import { writeFileAtomically } from '../../io/byte-sink.js';
import { encodeApng, encodePng } from '../../../shared/assets/png.js';
import { deflateZlib } from '../../io/zlib.js';
import { readGaf, layerCount, durationMs, type GafFrame } from '../../../shared/assets/ta/gaf.js';
import { alignFrames, renderGafFrame } from '../../../shared/assets/ta/gaf-pixels.js';
import { decodePal, paletteSwatch } from '../../../shared/assets/ta/pal.js';
import { safeRelativePath } from '../../../shared/paths.js';
import { parseInteger } from '../options.js';
import { UsageError } from '../errors.js';

/**
 * `modpak gaf list|export` and `modpak pal swatch`: TA's sprite and palette files, from disk or (with
 * --install) from an install's layered filesystem, the palette then being the install's winner.
 * The `gaf list --json` shape is a contract other tools script against:
 * {"sequences":[{"name","frames":[{"width","height","xOffset","yOffset","duration","layers"}]}]}.
 */

/** A frame shown this long when its GAF gives no duration (two ticks), for APNG export. */
const UNTIMED_FRAME_MS = 67;

async function writeBytes(target: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  await writeFileAtomically(target, (sink) => sink.write(bytes));
}

const frameJson = (f: GafFrame) => ({
  width: f.width,
  height: f.height,
  xOffset: f.xOffset,
  yOffset: f.yOffset,
  duration: f.duration,
  layers: layerCount(f),
});

export function registerTaAssetCommands(program: Command, ctx: CliContext): void {
  const gaf = program.command('gaf').description("TA's GAF sprites: sequences, frames, PNG export");

  withAssetOptions(gaf.command('list').argument('<file>', 'a .gaf file (with --install: a path in the install)'))
    .description('sequences and their frames (size, offset, duration in ticks, layers)')
    .option('--json', 'machine-readable output')
    .exitOverride()
    .action(async (file: string, opts: AssetCliOptions & { json?: boolean }) =>
      withAsset(ctx, file, opts, async (asset) => {
        const parsed = readGaf(asset.bytes, asset.name);
        for (const w of parsed.warnings) ctx.warn(w);
        const sequences = parsed.sequences.map((s) => ({ name: s.name, frames: s.frames.map(frameJson) }));
        if (opts.json) return ctx.printJson({ sequences });
        for (const s of sequences) {
          ctx.print(`${s.name}  (${s.frames.length} frame${s.frames.length === 1 ? '' : 's'})`);
          s.frames.forEach((f, i) =>
            ctx.print(
              `  ${i}: ${f.width} × ${f.height} at ${f.xOffset}, ${f.yOffset}  ${f.duration} ticks  ${f.layers} layer${f.layers === 1 ? '' : 's'}`,
            ),
          );
        }
      }),
    );

  withAssetOptions(gaf.command('export').argument('<file>', 'a .gaf file (with --install: a path in the install)'))
    .description('every frame as DIR/<sequence>/<frame>.png (RGBA, alpha 0 where transparent); --apng: DIR/<sequence>.png animated')
    .requiredOption('-t, --target <dir>', 'the folder to write into')
    .option('--apng', 'one animated PNG per sequence instead, frames placed by their offsets')
    .exitOverride()
    .action(async (file: string, opts: AssetCliOptions & { target: string; apng?: boolean }) =>
      withAsset(ctx, file, opts, async (asset) => {
        const parsed = readGaf(asset.bytes, asset.name);
        for (const w of parsed.warnings) ctx.warn(w);
        const palette = parsed.variant === 'ta3d-truecolour' ? null : await asset.context.palette('ta');
        const root = resolve(opts.target);
        const used = new Set<string>();
        let written = 0;
        for (const sequence of parsed.sequences) {
          let rel = safeRelativePath(sequence.name);
          if (rel === null) {
            ctx.warn(`refused to export sequence ${JSON.stringify(sequence.name)}: it would land outside the target folder`);
            continue;
          }
          // Two sequences of one name (TA allows it) must not overwrite each other.
          for (let n = 2; used.has(rel.toUpperCase()); n++) rel = `${safeRelativePath(sequence.name)}~${n}`;
          used.add(rel.toUpperCase());
          const frames = sequence.frames
            .map((frame, i) => ({ frame, i }))
            .filter(({ frame, i }) => {
              if (frame.width > 0 && frame.height > 0) return true;
              ctx.warn(`${sequence.name} frame ${i} has no pixels (${frame.width} × ${frame.height}): skipped`);
              return false;
            })
            .map(({ frame, i }) => ({
              frame,
              i,
              image: renderGafFrame(
                asset.bytes,
                parsed.variant,
                frame,
                palette ?? { name: '', rgba: new Uint8Array(1024) },
                `${asset.name}: ${sequence.name} frame ${i}`,
              ),
            }));
          if (frames.length === 0) continue;
          if (opts.apng) {
            const aligned = alignFrames(frames);
            await writeBytes(
              join(root, `${rel}.png`),
              encodeApng(
                aligned.map((image, k) => ({ image, delayMs: durationMs(frames[k]!.frame.duration) ?? UNTIMED_FRAME_MS })),
                deflateZlib,
              ),
            );
            written++;
          } else {
            for (const { i, image } of frames) {
              await writeBytes(join(root, rel, `${i}.png`), encodePng(image, deflateZlib));
              written++;
            }
          }
        }
        ctx.stderr.write(
          `modpak: ${written} PNG file${written === 1 ? '' : 's'} written to ${opts.target}${palette ? ` (palette: ${palette.name})` : ''}\n`,
        );
      }),
    );

  const pal = program.command('pal').description("TA's palette files");
  withAssetOptions(pal.command('swatch').argument('<file>', 'a PALETTE.PAL (with --install: a path in the install)'))
    .description('the 256 colours as a 16 × 16 grid PNG, index 0 top left')
    .requiredOption('-t, --target <png>', 'the PNG to write')
    .option('--cell <pixels>', 'the size of each colour square', parseInteger, 16)
    .exitOverride()
    .action(async (file: string, opts: AssetCliOptions & { target: string; cell: number }) => {
      if (opts.cell < 1 || opts.cell > 64) throw new UsageError('--cell must be 1–64');
      return withAsset(ctx, file, opts, async (asset) => {
        const decoded = decodePal(asset.bytes, asset.name);
        if (decoded.trailing > 0) ctx.warn(`${decoded.trailing} bytes after the 256 entries ignored`);
        await writeBytes(resolve(opts.target), encodePng(paletteSwatch(decoded.palette, opts.cell), deflateZlib));
      });
    });
}
