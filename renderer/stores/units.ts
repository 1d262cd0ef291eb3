import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { UnitRow, UnitTableField } from '../../shared/search-types';
import { api } from '../api';
import { errorMessage } from '../lib/errors';
import { useInstallStore } from './install';

export type UnitSortKey = 'unitName' | 'archive' | UnitTableField;

const NUMERIC = new Set<UnitSortKey>(['BuildCostMetal', 'BuildCostEnergy', 'MaxDamage', 'MaxVelocity']);

/** The unit table: every unit the game loads with its main FBI fields, sortable and filterable. */
export const useUnitsStore = defineStore('units', () => {
  const rows = shallowRef<UnitRow[] | null>(null);
  const loading = ref(false);
  const error = ref<string | null>(null);
  const query = ref('');
  const sortKey = ref<UnitSortKey>('unitName');
  const descending = ref(false);
  let forRoot: string | null = null;

  const valueOf = (row: UnitRow, key: UnitSortKey): string =>
    key === 'unitName' ? row.unitName : key === 'archive' ? (row.archive ?? '') : (row.fields[key] ?? '');

  const shown = computed<UnitRow[]>(() => {
    const q = query.value.trim().toLowerCase();
    const matching = (rows.value ?? []).filter(
      (r) => q === '' || [r.unitName, r.file, r.archive ?? '', ...Object.values(r.fields)].some((v) => v.toLowerCase().includes(q)),
    );
    const key = sortKey.value;
    const numeric = NUMERIC.has(key);
    const sign = descending.value ? -1 : 1;
    return matching.sort((a, b) => {
      const va = valueOf(a, key);
      const vb = valueOf(b, key);
      if (numeric) return sign * ((Number.parseFloat(va) || 0) - (Number.parseFloat(vb) || 0));
      return sign * va.localeCompare(vb, undefined, { sensitivity: 'base' });
    });
  });

  function sortBy(key: UnitSortKey): void {
    if (sortKey.value === key) descending.value = !descending.value;
    else {
      sortKey.value = key;
      descending.value = NUMERIC.has(key);
    }
  }

  async function load(): Promise<void> {
    const root = useInstallStore().root;
    if (!root || (root === forRoot && rows.value)) return;
    forRoot = root;
    rows.value = null;
    loading.value = true;
    error.value = null;
    try {
      rows.value = await api.call('install.units', { root });
    } catch (err) {
      error.value = errorMessage(err);
    } finally {
      loading.value = false;
    }
  }

  return { rows, loading, error, query, sortKey, descending, shown, sortBy, load };
});
