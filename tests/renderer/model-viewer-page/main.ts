import { createApp, h } from 'vue';
import ModelViewer from '../../../renderer/components/assets/ModelViewer.vue';
import { assetDecoderFor, type AssetContext } from '../../../shared/assets/registry';
import { paletteFromRgb } from '../../../shared/assets/image';
import type { ModelView } from '../../../shared/assets/view';
import { makeMdl } from '../../helpers/model-fixtures';

/**
 * A page that shows one model file in the ModelViewer, for the Playwright test: `?file=` is a path the
 * test's Vite server serves (the shared samples), `?palette=` the TA PALETTE.PAL to colour it with, or
 * `?fixture=mdl` the MDL fixture (skins through `?quakePalette=`, Quake's palette.lmp).
 */
const query = new URLSearchParams(location.search);

async function fetchBytes(path: string): Promise<Uint8Array> {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function main(): Promise<void> {
  const file = query.get('file') ?? 'fixture.mdl';
  const bytes = query.get('fixture') === 'mdl' ? makeMdl() : await fetchBytes(file);
  const paletteFile = query.get('palette');
  const pal = paletteFile ? await fetchBytes(paletteFile) : null;
  const quakeFile = query.get('quakePalette');
  const lmp = quakeFile ? await fetchBytes(quakeFile) : null;
  const context: AssetContext = {
    palette: async (game) => {
      if (game === 'quake' && lmp) return paletteFromRgb('palette.lmp', lmp);
      if (!pal) throw new Error('no palette');
      const rgb = new Uint8Array(768);
      for (let i = 0; i < 256; i++) rgb.set(pal.subarray(i * 4, i * 4 + 3), i * 3);
      return paletteFromRgb('PALETTE.PAL', rgb);
    },
    readFile: async () => null,
    list: async () => [],
  };
  const decoder = assetDecoderFor(file, bytes.subarray(0, 64));
  if (!decoder) throw new Error(`${file}: no decoder`);
  const view = (await decoder.view(file, bytes, context)) as ModelView;
  createApp({ render: () => h(ModelViewer, { view }) }).mount('#app');
}

/** What the Playwright test reads from the WebGL canvas: distinct colours and the luminance variance. */
async function canvasStats(): Promise<{ width: number; height: number; colours: number; variance: number }> {
  const canvas = document.querySelector<HTMLCanvasElement>('canvas.model-canvas')!;
  const img = new Image();
  await new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error('the canvas did not read back as an image'));
    img.src = canvas.toDataURL('image/png');
  });
  const copy = document.createElement('canvas');
  copy.width = img.width;
  copy.height = img.height;
  const ctx = copy.getContext('2d')!;
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
  const colours = new Set<number>();
  let sum = 0;
  let sumSq = 0;
  for (let i = 0; i < data.length; i += 4) {
    colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    const y = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
    sum += y;
    sumSq += y * y;
  }
  const n = data.length / 4;
  return { width: copy.width, height: copy.height, colours: colours.size, variance: sumSq / n - (sum / n) ** 2 };
}
(globalThis as unknown as { modelViewerStats: typeof canvasStats }).modelViewerStats = canvasStats;

main().catch((e: unknown) => {
  document.body.dataset.error = String(e);
  console.error(e);
});
