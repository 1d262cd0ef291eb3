import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { createTwoFilesPatch } from 'diff';
import type { TdfCheck } from '../../shared/contract';
import { api, ApiError } from '../api';
import { useErrorsStore } from './errors';
import { useWorkspaceStore } from './workspace';
import { isTdfSyntax } from '../../shared/file-kinds';
import { checkTdf } from '../../shared/tdf/parse';

/** How long typing must pause before the text is checked. */
export const CHECK_DELAY_MS = 200;

/**
 * The text editor of the Mods screen. It keeps the content hash of the file as it was loaded (or last
 * saved), so that nobody's edit is lost: a change on disk reloads a clean buffer by itself and puts a
 * dirty one in `conflict`, where the user picks reload (theirs), keep mine (save over it) or compare
 * (a diff of the two); a save over a file that changed underneath is refused by the host the same way.
 */
export interface EditorConflict {
  /** The file on disk now (null: deleted). */
  diskHash: string | null;
  diskText: string | null;
  /** The unified diff disk → mine, once "compare" was asked for. */
  comparison: string | null;
}

export const useEditorStore = defineStore('editor', () => {
  const path = ref<string | null>(null);
  const text = ref('');
  const savedText = ref('');
  /** The hash of the file on disk that `savedText` is. */
  const hash = ref<string | null>(null);
  const check = ref<TdfCheck | null>(null);
  const saving = ref(false);
  const conflict = ref<EditorConflict | null>(null);
  let checkTimer: ReturnType<typeof setTimeout> | null = null;
  const savedListeners = new Set<() => void>();

  const dirty = computed(() => path.value !== null && text.value !== savedText.value);
  const report = (error: unknown, context: string) => void useErrorsStore().report(error, context);

  function clear(): void {
    path.value = null;
    text.value = savedText.value = '';
    hash.value = null;
    check.value = null;
    conflict.value = null;
  }

  async function openFile(file: string): Promise<void> {
    const dir = useWorkspaceStore().dir;
    if (!dir) return;
    try {
      const read = await api.call('workspace.readText', { dir, path: file });
      path.value = file;
      text.value = savedText.value = read.text;
      hash.value = read.hash;
      check.value = null;
      conflict.value = null;
      if (isTdfSyntax(file)) runCheck();
    } catch (error) {
      report(error, `Opening ${file}`);
    }
  }

  /** The editor changed: keep the text and check it once typing pauses. */
  function edit(next: string): void {
    text.value = next;
    if (!path.value || !isTdfSyntax(path.value)) return;
    if (checkTimer) clearTimeout(checkTimer);
    checkTimer = setTimeout(() => {
      checkTimer = null;
      runCheck();
    }, CHECK_DELAY_MS);
  }

  /** The parser is pure (shared/tdf), so the check runs here: no round trip per pause in typing. */
  function runCheck(): void {
    check.value = checkTdf(text.value);
  }

  /** Save; refused (false, `conflict` set) when the file changed on disk since it was loaded. */
  async function save(options: { overwrite?: boolean } = {}): Promise<boolean> {
    const dir = useWorkspaceStore().dir;
    const file = path.value;
    if (!dir || !file) return false;
    saving.value = true;
    const mine = text.value;
    try {
      const written = await api.call('workspace.writeText', {
        dir,
        path: file,
        text: mine,
        ...(options.overwrite ? {} : { expectedHash: hash.value }),
      });
      savedText.value = mine;
      hash.value = written.hash;
      useWorkspaceStore().noteOwnWrite(file, written.hash);
      conflict.value = null;
      for (const l of savedListeners) l();
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'conflict') await loadConflict(file);
      else report(error, `Saving ${file}`);
      return false;
    } finally {
      saving.value = false;
    }
  }

  async function loadConflict(file: string): Promise<void> {
    const dir = useWorkspaceStore().dir;
    if (!dir) return;
    try {
      const disk = await api.call('workspace.readText', { dir, path: file });
      // Our own save got there first (its event can overtake the save's answer), or the disk holds just
      // what the editor holds: nothing to choose.
      if (path.value !== file || disk.hash === hash.value) return;
      if (disk.text === text.value) {
        savedText.value = disk.text;
        hash.value = disk.hash;
        return;
      }
      conflict.value = { diskHash: disk.hash, diskText: disk.text, comparison: null };
    } catch {
      conflict.value = { diskHash: null, diskText: null, comparison: null };
    }
  }

  /** A `workspace.changed` event: reload a clean buffer, flag a dirty one. Our own saves match `hash`. */
  async function onDiskChange(changed: { path: string; hash: string | null }[]): Promise<void> {
    const file = path.value;
    if (!file) return;
    const mine = changed.find((c) => c.path.toLowerCase() === file.toLowerCase());
    // While a save is under way its own change is on its way too: the save's answer settles the hash.
    if (!mine || mine.hash === hash.value || saving.value) return;
    if (!dirty.value && mine.hash !== null) await openFile(file);
    else await loadConflict(file);
  }

  /** The user's choice on a conflict. */
  async function resolveConflict(choice: 'reload' | 'keep' | 'compare'): Promise<void> {
    const held = conflict.value;
    const file = path.value;
    if (!held || !file) return;
    if (choice === 'reload') await openFile(file);
    else if (choice === 'keep') await save({ overwrite: true });
    else
      conflict.value = {
        ...held,
        comparison: createTwoFilesPatch(`${file} (on disk)`, `${file} (yours)`, held.diskText ?? '', text.value, '', '', { context: 2 }),
      };
  }

  function onSaved(listener: () => void): () => void {
    savedListeners.add(listener);
    return () => savedListeners.delete(listener);
  }

  return {
    path,
    text,
    savedText,
    hash,
    check,
    saving,
    conflict,
    dirty,
    clear,
    openFile,
    edit,
    runCheck,
    save,
    onDiskChange,
    resolveConflict,
    onSaved,
  };
});
