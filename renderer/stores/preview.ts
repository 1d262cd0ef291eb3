import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { FilePreview } from '../../shared/contract';
import { api } from '../api';
import { latestRequest } from './latest-request';
import { previewKindOf } from '../lib/file-kinds';
import { preloadModelSceneFor } from '../lib/model-scene-loader';

/** Text and hex previews read the first MiB; images and sounds need the whole file (up to the contract's cap). */
const TEXT_BYTES = 1 << 20;
const MEDIA_BYTES = 64 << 20;

export type PreviewSource =
  | { kind: 'install'; root: string; path: string; archive?: string | null }
  /** `lump`: a WAD lump's type from the directory; `paletteRoot`: the open install, for palettes the archive lacks. */
  | { kind: 'archive'; archive: string; entry: string; lump?: string; paletteRoot?: string };

function bytesFor(path: string, size: number | undefined, lump = false): number {
  const kind = lump ? 'asset' : previewKindOf(path);
  // An asset's picture comes decoded from asset.view; its bytes here are for the Hex tab.
  if (kind === 'text' || kind === 'tdf' || kind === 'hex' || kind === 'asset') return TEXT_BYTES;
  return Math.max(1, Math.min(size ?? MEDIA_BYTES, MEDIA_BYTES));
}

/**
 * One file's bytes for preview. Two instances: the Files screen's and the Archive screen's, so switching
 * screens keeps each one's preview. A newer request wins over a slower older one.
 */
function definePreviewStore(id: string) {
  return defineStore(id, () => {
    const source = ref<PreviewSource | null>(null);
    const file = ref<FilePreview | null>(null);
    const { loading, error, run, reset } = latestRequest();

    async function load(next: PreviewSource, size?: number): Promise<void> {
      source.value = next;
      file.value = null;
      preloadModelSceneFor(next.kind === 'install' ? next.path : next.entry);
      await run(
        () =>
          next.kind === 'install'
            ? api.call('install.read', { root: next.root, path: next.path, archive: next.archive, maxBytes: bytesFor(next.path, size) })
            : api.call('archive.read', {
                path: next.archive,
                entry: next.entry,
                maxBytes: bytesFor(next.entry, size, next.lump !== undefined),
              }),
        (result) => (file.value = result),
      );
    }

    function clear(): void {
      reset();
      source.value = null;
      file.value = null;
    }

    return { source, file, loading, error, load, clear };
  });
}

export const useFilesPreviewStore = definePreviewStore('files-preview');
export const useArchivePreviewStore = definePreviewStore('archive-preview');
