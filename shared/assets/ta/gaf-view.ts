import type { Palette } from '../image.js';
import type { AssetDecoder } from '../registry.js';
import type { AssetFact, ImagesView } from '../view.js';
import { describeVariant, durationMs, layerCount, looksLikeGaf, readGaf, type GafFile } from './gaf.js';
import { renderGafFrame } from './gaf-pixels.js';

/** A GAF for the studio: one image group per sequence, every frame composited, with its duration. */
export function gafView(name: string, bytes: Uint8Array, palette: Palette): ImagesView {
  const gaf = readGaf(bytes, name);
  const truecolour = gaf.variant === 'ta3d-truecolour';
  const groups = gaf.sequences.map((sequence) => ({
    name: sequence.name,
    frames: sequence.frames.map((frame, i) => ({
      image: renderGafFrame(bytes, gaf.variant, frame, palette, `${name}: ${sequence.name} frame ${i}`),
      durationMs: durationMs(frame.duration),
      label: `offset ${frame.xOffset}, ${frame.yOffset}${frame.subFrames.length ? `, ${frame.subFrames.length} layers` : ''}${frame.duration ? `, ${frame.duration} ticks` : ''}`,
    })),
  }));
  return {
    kind: 'images',
    format: describeVariant(gaf.variant),
    facts: gafFacts(gaf),
    warnings: gaf.warnings,
    groups,
    ...(truecolour ? {} : { palette: palette.name }),
  };
}

export function gafFacts(gaf: GafFile): AssetFact[] {
  const frames = gaf.sequences.flatMap((s) => s.frames);
  const layered = frames.filter((f) => f.subFrames.length > 0).length;
  const rle = frames.filter((f) => f.subFrames.length === 0 && f.encoding === 1).length;
  const widest = frames.reduce((m, f) => Math.max(m, f.width), 0);
  const tallest = frames.reduce((m, f) => Math.max(m, f.height), 0);
  const facts: AssetFact[] = [
    { label: 'Version', value: `0x${gaf.version.toString(16).padStart(8, '0')}` },
    { label: 'Sequences', value: String(gaf.sequences.length) },
    { label: 'Frames', value: String(frames.length) },
    { label: 'Largest frame', value: `${widest} × ${tallest}` },
  ];
  if (gaf.variant === 'ta3d-truecolour') facts.push({ label: 'Pixels', value: 'zlib-compressed R, G, B, A (TA3D)' });
  else
    facts.push({
      label: 'Encoding',
      value: `${frames.length - rle - layered} raw, ${rle} row RLE, ${layered} layered (${frames.reduce((n, f) => n + (f.subFrames.length ? layerCount(f) : 0), 0)} sub-frames)`,
    });
  const durations = new Set(frames.map((f) => f.duration));
  facts.push({ label: 'Durations', value: `${[...durations].sort((a, b) => a - b).join(', ')} ticks (1 tick = 1/30 s)` });
  return facts;
}

export const gafDecoder: AssetDecoder = {
  id: 'gaf',
  accepts: (name, head) => /\.(gaf|taf)$/i.test(name) || looksLikeGaf(head),
  view: async (name, bytes, context) => gafView(name, bytes, await context.palette('ta')),
};
