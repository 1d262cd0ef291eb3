import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef, watch } from 'vue';
import type { ArchiveListing, ResponseOf } from '../../shared/contract';
import { api } from '../api';
import { filterPaths, indexPaths, type PathIndex } from '../lib/glob';
import { bytesToBase64, formatBytes, formatCount } from '../lib/bytes';
import { usePickerStore } from './picker';
import { DROP_BYTES_LIMIT } from '../lib/drop';
import { useErrorsStore } from './errors';
import { useJobsStore } from './jobs';
import { runExtraction } from './extraction';
import { useArchivePreviewStore } from './preview';
import { useInstallStore } from './install';
import { isGlob } from '../../shared/globs';
import { nextSort, sortIndices, type SortState } from '../lib/sort-order';

/** The entry list's columns that sort: stored order (#), then what each entry shows. */
export type EntrySortKey = 'order' | 'path' | 'size' | 'packed' | 'method';

export type VerifyResult = ResponseOf<'archive.verify'>;

/** A glob that matches one path literally. */
function literalGlob(path: string): string {
  return path.replace(/[\\*?[\]{}()!+@]/g, (c) => '\\' + c);
}

/**
 * What archive.extract should take for the current filter: nothing (everything), the glob itself (the
 * host reads it the same way: no slash = the file name), or for a substring filter, the matching paths.
 */
function extractGlobs(query: string, listing: ArchiveListing | null, visible: number[]): string[] | undefined {
  const q = query.trim();
  if (q === '' || !listing) return undefined;
  if (isGlob(q)) return [q];
  return visible.flatMap((i) => {
    const entry = listing.entries[i];
    return entry && !entry.dir ? [literalGlob(entry.path)] : [];
  });
}

/** "1 of 2 files": `files` counts the files that checked out, `errors` the damaged ones. */
export function damagedOf(r: VerifyResult): string {
  const total = r.files + r.errors.length;
  return `${formatCount(r.errors.length)} of ${formatCount(total)} file${total === 1 ? '' : 's'}`;
}

/** The Archive screen: one archive of any format, its entries in stored order, extract and verify. */
export const useArchiveStore = defineStore('archive', () => {
  const path = ref<string | null>(null);
  const listing = shallowRef<ArchiveListing | null>(null);
  const opening = ref(false);
  const openError = ref<string | null>(null);
  const query = ref('');
  const selected = ref<number | null>(null);
  const verifyResult = ref<VerifyResult | null>(null);
  const index = shallowRef<PathIndex | null>(null);
  /** One entry chosen for extraction from its context menu (null: everything, or what the filter matches). */
  const only = ref<string | null>(null);
  watch(query, () => (only.value = null));

  const sort = ref<SortState<EntrySortKey>>({ key: 'order', descending: false });

  /** Entry indices the filter keeps, in stored order. */
  const matching = computed<number[]>(() => {
    const l = listing.value;
    if (!l) return [];
    const found = index.value ? filterPaths(index.value, query.value) : null;
    if (!found) return l.entries.map((_, i) => i);
    return found.sort((a, b) => a - b);
  });

  /** Entry indices to show: the matching ones in the chosen column's order (ties in stored order). */
  const visible = computed<number[]>(() => {
    const l = listing.value;
    const kept = matching.value;
    const { key, descending } = sort.value;
    if (!l || key === 'order') return descending ? [...kept].reverse() : kept;
    const entries = l.entries;
    // Folders have no size: they sort before every file, as a size of -1.
    const keyOf: (i: number) => string | number =
      key === 'path'
        ? (i) => entries[i]?.path ?? ''
        : key === 'method'
          ? (i) => entries[i]?.method ?? ''
          : key === 'size'
            ? (i) => (entries[i]?.dir ? -1 : (entries[i]?.size ?? 0))
            : (i) => (entries[i]?.dir ? -1 : (entries[i]?.packedSize ?? 0));
    return sortIndices(kept, keyOf, descending);
  });

  function sortBy(key: EntrySortKey): void {
    sort.value = nextSort(sort.value, key);
  }

  async function open(target: string): Promise<boolean> {
    const trimmed = target.trim();
    if (!trimmed) {
      openError.value = 'Type the path of an archive first.';
      return false;
    }
    opening.value = true;
    openError.value = null;
    try {
      adopt(await api.call('archive.open', { path: trimmed }), trimmed);
      return true;
    } catch (error) {
      // Nothing of the previous archive stays on screen under the name that failed.
      listing.value = null;
      index.value = null;
      path.value = null;
      selected.value = null;
      verifyResult.value = null;
      useArchivePreviewStore().clear();
      openError.value = useErrorsStore().report(error, `Opening ${trimmed}`, { inline: true }).message;
      return false;
    } finally {
      opening.value = false;
    }
  }

  function adopt(result: ArchiveListing, asked: string): void {
    listing.value = markRaw(result);
    index.value = markRaw(indexPaths(result.entries.map((e) => e.path)));
    path.value = result.path ?? asked;
    selected.value = null;
    verifyResult.value = null;
    query.value = '';
    only.value = null;
    useArchivePreviewStore().clear();
  }

  /** An archive dropped in the browser (no path): its bytes, opened by the host from a temporary copy. */
  async function openBytes(file: File): Promise<boolean> {
    if (file.size > DROP_BYTES_LIMIT) {
      openError.value = `${file.name} is ${formatBytes(file.size)}: too large to send from the browser (the limit is ${formatBytes(DROP_BYTES_LIMIT)}); type its path or use Browse…`;
      return false;
    }
    opening.value = true;
    openError.value = null;
    try {
      const data = bytesToBase64(new Uint8Array(await file.arrayBuffer()));
      adopt(await api.call('archive.openBytes', { name: file.name, data }), file.name);
      return true;
    } catch (error) {
      openError.value = useErrorsStore().report(error, `Opening ${file.name}`, { inline: true }).message;
      return false;
    } finally {
      opening.value = false;
    }
  }

  async function pickAndOpen(): Promise<void> {
    const picked = await usePickerStore().pickFile('Open an archive', path.value);
    if (picked) await open(picked);
  }

  function select(i: number): void {
    const l = listing.value;
    const entry = l?.entries[i];
    if (!l || !entry || !path.value) return;
    selected.value = i;
    if (entry.dir) {
      useArchivePreviewStore().clear();
      return;
    }
    // The open install lends its palettes to pictures whose archive has none (a WAD2, a map pack).
    const paletteRoot = useInstallStore().root;
    void useArchivePreviewStore().load(
      {
        kind: 'archive',
        archive: path.value,
        entry: entry.path,
        ...(l.info.format === 'wad' && entry.type ? { lump: entry.type } : {}),
        ...(paletteRoot ? { paletteRoot } : {}),
      },
      entry.size,
    );
  }

  /** Extract everything, or what the filter matches (as globs are what archive.extract takes). */
  /** As the Files screen's extract: true, false, or 'exists' (the folder holds files; ask, then `overwrite`). */
  async function extract(target: string, overwrite = false): Promise<boolean | 'exists'> {
    const archive = path.value;
    if (!archive) return false;
    const globs = only.value !== null ? [literalGlob(only.value)] : extractGlobs(query.value, listing.value, visible.value);
    return runExtraction(`Extracting ${archive}`, target, (jobId, folder) =>
      api.call('archive.extract', { path: archive, target: folder, globs, ...(overwrite ? { overwrite } : {}), jobId }),
    );
  }

  async function verify(): Promise<VerifyResult | null> {
    const archive = path.value;
    if (!archive) return null;
    verifyResult.value = null;
    const result = await useJobsStore().run(
      `Verifying ${archive}`,
      (jobId) => api.call('archive.verify', { path: archive, jobId }),
      (r) => (r.ok ? `All ${formatCount(r.files)} files check out` : `${damagedOf(r)} damaged`),
      (r) => !r.ok,
    );
    verifyResult.value = result;
    return result;
  }

  return {
    path,
    listing,
    opening,
    openError,
    query,
    selected,
    verifyResult,
    sort,
    visible,
    sortBy,
    only,
    open,
    openBytes,
    pickAndOpen,
    select,
    extract,
    verify,
  };
});
