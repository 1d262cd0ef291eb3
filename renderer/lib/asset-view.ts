import { shallowRef } from 'vue';
import type { AssetViewResult, RequestOf } from '../../shared/contract';
import type { AssetView } from '../../shared/assets/view';
import { decodeAssetView } from '../../shared/assets/wire';
import { api } from '../api';
import { latestRequest } from '../stores/latest-request';
import type { PreviewSource } from '../stores/preview';

/** The asset.view request for a preview source: an install path (a provider, or the winner) or an archive entry. */
export function assetRequest(source: PreviewSource): RequestOf<'asset.view'> {
  return source.kind === 'install'
    ? { root: source.root, path: source.path, ...(source.archive !== undefined ? { archive: source.archive } : {}) }
    : { file: source.archive, entry: source.entry, ...(source.paletteRoot ? { paletteRoot: source.paletteRoot } : {}) };
}

/** One decoded asset following a source; a newer load wins over a slower older one. */
export function useAssetView() {
  const result = shallowRef<AssetViewResult | null>(null);
  const view = shallowRef<AssetView | null>(null);
  const { loading, error, run, reset } = latestRequest();

  async function load(source: PreviewSource): Promise<void> {
    result.value = null;
    view.value = null;
    await run(
      () => api.call('asset.view', assetRequest(source)),
      (answer) => {
        result.value = answer;
        view.value = answer.view ? decodeAssetView(answer.view) : null;
      },
    );
  }

  function clear(): void {
    reset();
    result.value = null;
    view.value = null;
  }

  return { result, view, loading, error, load, clear };
}
