import { createApp, h } from 'vue';
import ModelViewer from '../../../renderer/components/assets/ModelViewer.vue';
import { assetDecoderFor, type AssetContext } from '../../../shared/assets/registry';
import { paletteFromRgb } from '../../../shared/assets/image';
import type { ModelView } from '../../../shared/assets/view';

/**
 * A page that shows one model file in the ModelViewer, for the Playwright test: `?file=` is a path the
 * test's Vite server serves (the shared samples), `?palette=` the TA PALETTE.PAL to colour it with.
 */
const query = new URLSearchParams(location.search);

async function fetchBytes(path: string): Promise<Uint8Array> {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function main(): Promise<void> {
  const file = query.get('file')!;
  const bytes = await fetchBytes(file);
  const paletteFile = query.get('palette');
  const pal = paletteFile ? await fetchBytes(paletteFile) : null;
  const context: AssetContext = {
    palette: async () => {
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

main().catch((e: unknown) => {
  document.body.dataset.error = String(e);
  console.error(e);
});
