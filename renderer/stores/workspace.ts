import { defineStore } from 'pinia';
import { ref } from 'vue';
import { api } from '../api';
import { useErrorsStore } from './errors';
import { useInstallStore } from './install';
import { isTextFile as isEditableText } from '../../shared/file-kinds';
import { DROP_BYTES_LIMIT, type Dropped } from '../lib/drop';
import { bytesToBase64, formatBytes } from '../lib/bytes';

/**
 * The mod workspace: a folder tied to the open install, and its files. Opening one resets the other mod
 * stores (editor, overrides, export, watch) through `onAdopt` listeners registered by initModsStore.
 */
export const useWorkspaceStore = defineStore('workspace', () => {
  const dir = ref<string | null>(null);
  const files = ref<string[]>([]);
  /** Bumped by each listing and each adopt, so a listing answered late never overwrites a newer one. */
  let listing = 0;
  /** The content hash of each file the studio itself last wrote (lower-cased path), to know its change events. */
  const ownWrites = new Map<string, string>();
  const opening = ref(false);
  /** The export name the host proposes for a workspace opened from an archive (one that wins). */
  const proposedName = ref<string | null>(null);
  const adoptListeners = new Set<(folder: string | null) => void>();

  const root = () => useInstallStore().root;
  const report = (error: unknown, context: string) => void useErrorsStore().report(error, context);

  async function open(folder: string): Promise<boolean> {
    const install = root();
    if (!install) {
      report('Open a game install first: a workspace is tied to one.', 'Opening a workspace');
      return false;
    }
    if (!folder.trim()) return false;
    opening.value = true;
    try {
      const opened = await api.call('workspace.open', { dir: folder.trim(), root: install });
      adopt(opened.dir, opened.files, null);
      return true;
    } catch (error) {
      report(error, 'Opening a workspace');
      return false;
    } finally {
      opening.value = false;
    }
  }

  /** Open an existing .ufo as a workspace: extracted into `folder`, its stored order remembered. */
  async function openArchive(archive: string, folder: string): Promise<boolean> {
    const install = root();
    if (!install || !archive.trim() || !folder.trim()) return false;
    opening.value = true;
    try {
      const opened = await api.call('workspace.fromArchive', { archive: archive.trim(), dir: folder.trim(), root: install });
      adopt(opened.dir, opened.files, opened.exportName ?? null);
      return true;
    } catch (error) {
      report(error, 'Opening an archive as a workspace');
      return false;
    } finally {
      opening.value = false;
    }
  }

  function adopt(folder: string | null, list: string[], name: string | null): void {
    listing++;
    ownWrites.clear();
    dir.value = folder;
    files.value = list;
    proposedName.value = name;
    for (const l of adoptListeners) l(folder);
  }

  /** Forget the workspace (another install took over the screens). */
  function close(): void {
    adopt(null, [], null);
  }

  function onAdopt(listener: (folder: string | null) => void): () => void {
    adoptListeners.add(listener);
    return () => adoptListeners.delete(listener);
  }

  /** Remember a write of the studio's own (a save, a new file), whose change event follows it. */
  function noteOwnWrite(path: string, hash: string): void {
    ownWrites.set(path.toLowerCase(), hash);
  }

  /** Whether a change event only reports the studio's own writes (the files hold what it wrote). */
  function isOwnWriteEcho(changed: { path: string; hash: string | null }[]): boolean {
    return changed.length > 0 && changed.every((c) => c.hash !== null && ownWrites.get(c.path.toLowerCase()) === c.hash);
  }

  /** Re-read the list. Calls overlap (a save's refresh and a change event's): only the newest lands. */
  async function refreshFiles(): Promise<void> {
    const folder = dir.value;
    if (!folder) return;
    const ticket = ++listing;
    const list = await api.call('workspace.files', { dir: folder });
    if (ticket === listing && dir.value === folder) files.value = list;
  }

  /** Copy the install's winning file at `path` into the workspace; resolves with its path there. */
  async function override(path: string): Promise<string | null> {
    const install = root();
    if (!dir.value || !install) {
      report('Open a workspace first (Mods screen).', 'Override');
      return null;
    }
    try {
      const result = await api.call('workspace.override', { dir: dir.value, root: install, path });
      await refreshFiles();
      return result.path;
    } catch (error) {
      report(error, `Override ${path}`);
      return null;
    }
  }

  /** Add a new, empty text file (never replacing one); resolves with its path, or the existing file's. */
  async function createFile(path: string): Promise<string | null> {
    const clean = path.trim().replace(/\\/g, '/').replace(/^\/+/, '');
    if (!dir.value || !clean) return null;
    const existing = files.value.find((f) => f.toLowerCase() === clean.toLowerCase());
    if (existing) return existing;
    if (!isEditableText(clean)) {
      report(`${clean}: only text files (TDF, FBI, GUI, OTA, TXT, …) can be created here; copy other files into the folder`, 'New file');
      return null;
    }
    try {
      // expectedHash null: a file that appeared meanwhile is not overwritten.
      const written = await api.call('workspace.writeText', { dir: dir.value, path: clean, text: '', expectedHash: null });
      noteOwnWrite(written.path, written.hash);
      await refreshFiles();
      return written.path;
    } catch (error) {
      report(error, `Creating ${clean}`);
      return null;
    }
  }

  /**
   * Files dropped onto the workspace: in Electron copied by the host from their paths on disk; in the
   * browser their bytes sent in batches that fit the host's request limit. Resolves with the paths added.
   */
  async function addDropped(dropped: Dropped): Promise<string[]> {
    if (!dir.value) return [];
    const target = dir.value;
    try {
      const added: string[] = [];
      if (dropped.desktopPaths.length > 0) {
        added.push(...(await api.call('workspace.addPaths', { dir: target, sources: dropped.desktopPaths })).added);
      } else {
        let batch: { path: string; data: string }[] = [];
        let size = 0;
        const send = async () => {
          if (batch.length) added.push(...(await api.call('workspace.addFiles', { dir: target, files: batch })).added);
          batch = [];
          size = 0;
        };
        for (const { path, file } of dropped.files) {
          if (file.size > DROP_BYTES_LIMIT)
            throw new Error(
              `${path} is too large to send from the browser (${formatBytes(file.size)}); copy it into ${target} with the file manager`,
            );
          if (size + file.size > DROP_BYTES_LIMIT) await send();
          batch.push({ path, data: bytesToBase64(new Uint8Array(await file.arrayBuffer())) });
          size += file.size;
        }
        await send();
      }
      await refreshFiles();
      return added;
    } catch (error) {
      report(error, 'Adding dropped files');
      return [];
    }
  }

  return {
    dir,
    files,
    opening,
    proposedName,
    open,
    openArchive,
    close,
    onAdopt,
    refreshFiles,
    override,
    createFile,
    addDropped,
    noteOwnWrite,
    isOwnWriteEcho,
  };
});
