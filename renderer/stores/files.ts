import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef, toRaw, watch } from 'vue';
import type { MergedTree } from '../../shared/vfs-types';
import { api } from '../api';
import { filterPaths, indexPaths, type PathIndex } from '../lib/glob';
import { ancestorKeys, buildTreeModel, filesUnder, matchRows, visibleRows, type TreeModel, type TreeRow } from '../lib/tree-model';
import { formatCount } from '../lib/bytes';
import { useErrorsStore } from './errors';
import { useInstallStore } from './install';
import { useLayeringStore } from './layering';
import { useFilesPreviewStore } from './preview';
import { useNavigationStore } from './navigation';
import { runExtraction } from './extraction';

/**
 * The Files screen: the install's merged tree, the filter, the selected row and extraction. The tree's
 * arrays are held shallowly (60,000 paths must not become 60,000 reactive proxies); the folder model and
 * the filter's index are made once per tree, raw, the index only when first needed or the page is idle.
 */
export const useFilesStore = defineStore('files', () => {
  const tree = shallowRef<MergedTree | null>(null);
  const treeRoot = ref<string | null>(null);
  const loading = ref(false);
  const query = ref('');
  /** Expanded folders (lower-case keys). */
  const expanded = ref<string[]>([]);
  const activeId = ref<string | null>(null);
  /** How long the last filter took, in milliseconds. */
  const filterMs = ref(0);
  const model = shallowRef<TreeModel | null>(null);

  /**
   * The filter's index of the tree's paths: made at the first filter, or when the page is idle after the
   * tree is on screen, whichever comes first (it is not needed to show the tree).
   */
  let pathIndex: { tree: MergedTree; index: PathIndex } | null = null;
  function indexOf(t: MergedTree): PathIndex {
    if (pathIndex?.tree !== t) pathIndex = { tree: t, index: markRaw(indexPaths(t.paths)) };
    return pathIndex.index;
  }
  function indexWhenIdle(t: MergedTree): void {
    const idle = (globalThis as { requestIdleCallback?: (run: () => void, options?: { timeout: number }) => number }).requestIdleCallback;
    const run = () => {
      if (tree.value === t) indexOf(t);
    };
    if (idle) idle(run, { timeout: 1000 });
    else setTimeout(run, 50);
  }

  const matches = computed<number[] | null>(() => {
    const t = tree.value;
    if (!t || !model.value) return null;
    if (query.value.trim() === '') return null;
    const started = performance.now();
    const result = filterPaths(indexOf(t), query.value);
    filterMs.value = performance.now() - started;
    // For benchmarks driving the page: each filter's duration as a performance entry.
    if (result) performance.measure('modpak:filter', { start: started, end: started + filterMs.value });
    return result;
  });

  const expandedSet = computed(() => new Set(expanded.value));

  const rows = computed<TreeRow[]>(() => {
    const m = model.value;
    if (!m) return [];
    const found = matches.value;
    return found ? matchRows(m, found) : visibleRows(m, expandedSet.value);
  });

  const activeRow = computed<TreeRow | null>(() => rows.value.find((r) => r.id === activeId.value) ?? null);
  const activeIndex = computed(() => rows.value.findIndex((r) => r.id === activeId.value));
  const totalPaths = computed(() => tree.value?.paths.length ?? 0);

  /** The tree being read: one request per install, whoever asks for it while it is on its way. */
  interface TreeRead {
    root: string;
    done: Promise<void>;
  }
  let pending: TreeRead | null = null;

  function load(root: string): Promise<void> {
    if (pending?.root === root) return pending.done;
    const read: TreeRead = { root, done: Promise.resolve() };
    pending = read;
    read.done = readTree(read);
    return read.done;
  }

  async function readTree(read: TreeRead): Promise<void> {
    const { root } = read;
    loading.value = true;
    try {
      const result = await api.call('install.tree', { root });
      // Another install was opened meanwhile: its own read is on its way.
      if (pending !== read) return;
      adoptTree(root, result);
      expanded.value = [];
      activeId.value = null;
      useLayeringStore().clear();
      useFilesPreviewStore().clear();
    } catch (error) {
      if (pending === read) useErrorsStore().report(error, 'Reading the install tree');
    } finally {
      if (pending === read) {
        pending = null;
        loading.value = false;
      }
    }
  }

  function adoptTree(root: string, result: MergedTree): void {
    tree.value = markRaw(result);
    model.value = markRaw(buildTreeModel(result.paths));
    treeRoot.value = root;
    performance.mark('modpak:tree-loaded');
    indexWhenIdle(result);
  }

  /**
   * The install changed on disk: the new tree, keeping the folders open and the selection (a file keeps
   * being selected by its path, with its layering and preview asked again: its winner may have changed).
   */
  async function refresh(): Promise<void> {
    const root = treeRoot.value;
    if (!root || !tree.value) return;
    const selected = activeRow.value;
    const layering = useLayeringStore();
    // The selected file's new winner first (one lookup), so Layering and Preview do not wait for the tree.
    const path = selected?.kind === 'file' ? selected.path : selected?.kind === 'dir' ? null : layering.path;
    if (path) {
      void layering.resolve(root, path);
      if (selected?.kind === 'file') void useFilesPreviewStore().load({ kind: 'install', root, path });
    }
    try {
      const result = await api.call('install.tree', { root });
      if (treeRoot.value !== root) return;
      adoptTree(root, result);
      if (selected?.kind === 'file') {
        const key = selected.path.toLowerCase();
        const index = result.paths.findIndex((p) => p.toLowerCase() === key);
        activeId.value = index < 0 ? null : 'f:' + index;
        // Gone from the install: Layering says nothing provides it; there is nothing to preview.
        if (index < 0) useFilesPreviewStore().clear();
      }
    } catch (error) {
      useErrorsStore().report(error, 'Reading the install tree');
    }
  }

  /** Load the tree for the open install if it is not loaded yet (or the install changed). */
  async function ensureLoaded(): Promise<void> {
    const install = useInstallStore();
    if (install.root && (treeRoot.value !== install.root || !tree.value)) await load(install.root);
  }

  function toggle(row: TreeRow, open?: boolean): void {
    if (row.kind !== 'dir') return;
    const key = row.id.slice(2);
    const isOpen = expandedSet.value.has(key);
    const want = open ?? !isOpen;
    if (want === isOpen) return;
    expanded.value = want ? [...expanded.value, key] : expanded.value.filter((k) => k !== key);
  }

  /** Select a row: a file gets its layering and preview loaded. */
  function select(row: TreeRow): void {
    activeId.value = row.id;
    const root = treeRoot.value;
    if (row.kind !== 'file' || !root || !tree.value) return;
    void useLayeringStore().resolve(root, row.path);
    void useFilesPreviewStore().load({ kind: 'install', root, path: row.path }, tree.value.sizes[row.index]);
  }

  /** Go to the Files screen and show a file there (from Definitions, Units, Search). */
  async function showInFiles(path: string): Promise<void> {
    useNavigationStore().go('files');
    await ensureLoaded();
    reveal(path);
  }

  /** Clear the filter and show a file in the tree, its folders expanded. */
  function reveal(path: string): void {
    const index = tree.value?.paths.findIndex((p) => p.toLowerCase() === path.toLowerCase()) ?? -1;
    const found = tree.value?.paths[index];
    if (found === undefined) return;
    query.value = '';
    const want = new Set(expanded.value);
    for (const key of ancestorKeys(found)) want.add(key);
    expanded.value = [...want];
    const row = rows.value.find((r) => r.id === 'f:' + index);
    if (row) select(row);
  }

  /** The paths "Extract" writes: the selected file or folder, else everything the filter matches. */
  const extractPaths = computed<string[]>(() => {
    const t = tree.value;
    const m = model.value;
    if (!t || !m) return [];
    const row = activeRow.value;
    if (row?.kind === 'file') return [row.path];
    const pathsOf = (indices: readonly number[]) => indices.flatMap((i) => t.paths[i] ?? []);
    if (row?.kind === 'dir') return pathsOf(filesUnder(m, row.id.slice(2)));
    return matches.value ? pathsOf(matches.value) : [];
  });

  /**
   * Extract into `target`: true when done, false when it failed or was cancelled, 'exists' when the folder
   * already holds files and `overwrite` was not given (the studio asks, then calls again with it).
   */
  async function extract(target: string, paths: string[] = extractPaths.value, overwrite = false): Promise<boolean | 'exists'> {
    const root = treeRoot.value;
    if (!root || paths.length === 0) return false;
    return runExtraction(`Extracting ${formatCount(paths.length)} file${paths.length === 1 ? '' : 's'}`, target, (jobId, folder) =>
      // A plain copy: a reactive proxy cannot cross the IPC boundary (structured clone).
      api.call('install.extract', { root, paths: [...toRaw(paths)], target: folder, ...(overwrite ? { overwrite } : {}), jobId }),
    );
  }

  // The open install changed on disk: follow it at once, whether or not the screen is on show.
  watch(
    () => useInstallStore().revision,
    () => void refresh(),
  );

  // A newly opened install replaces the tree, which is read at once: by the time the user turns to the
  // Files screen (or a deep link shows a path there) it is on its way or there.
  watch(
    () => useInstallStore().generation,
    () => {
      tree.value = null;
      model.value = null;
      pathIndex = null;
      treeRoot.value = null;
      pending = null;
      loading.value = false;
      const root = useInstallStore().root;
      if (root) void load(root);
    },
  );

  return {
    tree,
    treeRoot,
    loading,
    query,
    expanded,
    activeId,
    filterMs,
    matches,
    rows,
    activeRow,
    activeIndex,
    totalPaths,
    extractPaths,
    load,
    refresh,
    ensureLoaded,
    toggle,
    select,
    reveal,
    showInFiles,
    extract,
  };
});

/**
 * Made at start-up, so the store follows the open install from the first open (and reads its tree at once,
 * while the Home screen shows the summary) instead of from the first visit to the Files screen.
 */
export function initFilesStore(): void {
  useFilesStore();
}
