/**
 * TNT maps: decode and render a generated 256 × 256-tile map (8192 × 8192 pixels, the largest render
 * checkImageSize allows), at full size and at 1/4 (and its PNG), and the studio's view of it (shown at 1/2,
 * markers drawn).
 */
import { exampleTntSpec, writeTnt } from '../electron/demo/tnt-map.js';
import { decodeTnt } from '../shared/assets/ta/tnt.js';
import { renderTnt } from '../shared/assets/ta/tnt-render.js';
import { tntView } from '../shared/assets/ta/tnt-view.js';
import { encodePng } from '../shared/assets/png.js';
import { deflateZlib } from '../electron/io/zlib.js';
import type { Palette } from '../shared/assets/image.js';
import { figure, timed } from './util.js';

const palette: Palette = { name: 'bench', rgba: new Uint8Array(1024).map((_, k) => ((k & 3) === 3 ? 255 : (k * 37) & 255)) };

const ms = (run: { ms: number; cpu: number }) => `${run.ms.toFixed(0)} ms (cpu ${run.cpu.toFixed(0)})`;

export async function run(): Promise<void> {
  const bytes = writeTnt(exampleTntSpec(256, 256, { tileCount: 1024 }));
  figure('tnt: generated map', `${(bytes.length / 1048576).toFixed(1)} MB`);
  const decode = await timed(() => decodeTnt(bytes, 'bench.tnt'));
  figure('tnt decode 256 × 256 tiles', ms(decode));
  const map = decode.value;
  for (let round = 0; round < 2; round++) {
    const full = await timed(() => renderTnt(map, palette));
    figure(`tnt render 8192 × 8192 (round ${round + 1})`, ms(full));
  }
  const quarter = await timed(() => renderTnt(map, palette, 0.25));
  figure('tnt render at 1/4 (2048 × 2048)', ms(quarter));
  // The CLI and the main process deflate with Node's zlib; the renderer (a frame saved in the browser) with pako.
  const png = await timed(() => encodePng(quarter.value, deflateZlib));
  figure('tnt PNG of the 1/4 render (native zlib)', `${ms(png)}, ${(png.value.length / 1048576).toFixed(1)} MB`);
  const inBrowser = await timed(() => encodePng(quarter.value));
  figure('  the same with pako (the renderer)', ms(inBrowser));
  const view = await timed(() => tntView(map, palette, { startPositions: [{ player: 1, x: 400, z: 400 }] }));
  figure('tnt studio view (1/2, markers)', ms(view));
}
