import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import type { DefinitionKind, DefinitionWinner } from '../../shared/vfs-types';
import { api } from '../api';
import { useErrorsStore } from './errors';
import { useInstallStore } from './install';

export const DEFINITION_KINDS: DefinitionKind[] = ['units', 'weapons', 'features'];

/** Units, weapons and features of the open install: the winner of each name and what it hides. */
export const useDefinitionsStore = defineStore('definitions', () => {
  const kind = ref<DefinitionKind>('units');
  const rowsByKind = shallowRef<Partial<Record<DefinitionKind, DefinitionWinner[]>>>({});
  const loadedRoot = ref<string | null>(null);
  const loading = ref(false);
  const query = ref('');
  const onlyConflicts = ref(false);

  const rows = computed(() => rowsByKind.value[kind.value] ?? null);
  const filtered = computed<DefinitionWinner[]>(() => {
    const all = rows.value ?? [];
    const q = query.value.trim().toLowerCase();
    return all.filter(
      (d) =>
        (!onlyConflicts.value || d.shadowed.length > 0) &&
        (q === '' || d.name.toLowerCase().includes(q) || d.file.toLowerCase().includes(q) || (d.archive ?? '').toLowerCase().includes(q)),
    );
  });

  async function load(which: DefinitionKind = kind.value): Promise<void> {
    const root = useInstallStore().root;
    if (!root) return;
    if (loadedRoot.value !== root) {
      rowsByKind.value = {};
      loadedRoot.value = root;
    }
    if (rowsByKind.value[which]) return;
    loading.value = true;
    try {
      const result = await api.call('install.defs', { root, kind: which });
      rowsByKind.value = { ...rowsByKind.value, [which]: result };
    } catch (error) {
      useErrorsStore().report(error, `Reading ${which}`);
    } finally {
      loading.value = false;
    }
  }

  async function show(which: DefinitionKind): Promise<void> {
    kind.value = which;
    await load(which);
  }

  // The install changed on disk: the winners may have changed; the kind on show is read again.
  watch(
    () => useInstallStore().revision,
    () => {
      const loaded = rowsByKind.value[kind.value] !== undefined;
      rowsByKind.value = {};
      if (loaded) void load(kind.value);
    },
  );

  watch(
    () => useInstallStore().generation,
    () => {
      rowsByKind.value = {};
      loadedRoot.value = null;
    },
  );

  return { kind, rows, filtered, loading, query, onlyConflicts, load, show };
});
