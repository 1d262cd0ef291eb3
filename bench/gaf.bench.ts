/**
 * GAF decoding: the real samples (when ../shared/samples is beside the checkout) and the demo install's
 * generated sprite, each read (structure) and every frame composited to RGBA, repeated until ~1 s has
 * passed. Prints frames per second and output megapixels per second.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { figure } from './util.js';
import { readGaf } from '../shared/assets/ta/gaf.js';
import { renderGafFrame } from '../shared/assets/ta/gaf-pixels.js';
import { builtInTaPalette } from '../shared/assets/ta/palette.js';
import { demoSpriteGaf } from '../electron/demo/gaf.js';

const samples = fileURLToPath(new URL('../../shared/samples/ta/', import.meta.url));
const SAMPLES = ['gaf/Alien.gaf', 'armimr/textures/ArmImp.gaf', 'armimr/anims/ARMIMR_gadget.gaf', 'gaf/ta3d_truecolour_cortl_gadget.gaf'];

function decodeAll(bytes: Uint8Array): { frames: number; pixels: number } {
  const palette = builtInTaPalette();
  const gaf = readGaf(bytes);
  let frames = 0;
  let pixels = 0;
  for (const s of gaf.sequences) {
    for (const f of s.frames) {
      const image = renderGafFrame(bytes, gaf.variant, f, palette);
      frames++;
      pixels += image.width * image.height;
    }
  }
  return { frames, pixels };
}

export async function run(): Promise<void> {
  const inputs: [string, Uint8Array][] = [['demo anims/DEMOFX.gaf (generated, RLE + layered)', demoSpriteGaf('demofx', 96)]];
  for (const name of SAMPLES) if (existsSync(join(samples, name))) inputs.push([name, new Uint8Array(readFileSync(join(samples, name)))]);
  for (const [name, bytes] of inputs) {
    for (let i = 0; i < 20; i++) decodeAll(bytes); // warm the JIT
    let rounds = 0;
    let frames = 0;
    let pixels = 0;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    while (performance.now() - t0 < 1000) {
      const r = decodeAll(bytes);
      rounds++;
      frames += r.frames;
      pixels += r.pixels;
    }
    const wall = performance.now() - t0;
    const used = process.cpuUsage(cpu0);
    // CPU time, not wall time: on a shared machine it is what the decoder costs.
    const ms = (used.user + used.system) / 1000;
    figure(
      `GAF ${name} (${(bytes.length / 1024).toFixed(1)} KiB, ${frames / rounds} frames)`,
      `${(ms / rounds).toFixed(3)} ms CPU a file (${(wall / rounds).toFixed(3)} wall) · ${Math.round((frames / ms) * 1000)} frames/s · ${(pixels / ms / 1000).toFixed(1)} Mpixel/s`,
    );
  }
}
