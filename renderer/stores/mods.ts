import { watch } from 'vue';
import { api } from '../api';
import { useInstallStore } from './install';
import { useWorkspaceStore } from './workspace';
import { useEditorStore } from './editor';
import { useOverridesStore } from './overrides';
import { useExportStore } from './export';
import { useWatchStore } from './watch';

/**
 * The Mods screen's five stores, one per concern: workspace.ts (the folder and its files), editor.ts (the
 * text editor, its TDF check and the guard against lost edits), overrides.ts (the diff against the
 * install), export.ts (target, impact, export) and watch.ts (watch-and-repack). Which files are text is
 * shared/file-kinds.ts's to say. This module holds initModsStore(), which wires them to each other and to the host's
 * events.
 */

const wired = new WeakMap<object, { refs: number; stop: () => void }>();

/**
 * Wire the mod stores: a newly adopted workspace resets the others; a save makes the impact and the diff
 * stale; the host's `watch` and `workspace.changed` events reach the watch status and the editor; another
 * install taking the screens closes the workspace (the host stopped its watcher already). Idempotent per
 * Pinia; returns the unsubscribe function.
 */
export function initModsStore(): () => void {
  const workspace = useWorkspaceStore();
  const held = wired.get(workspace);
  if (held) {
    held.refs++;
    return () => release(workspace);
  }
  const editor = useEditorStore();
  const overrides = useOverridesStore();
  const exporting = useExportStore();
  const watching = useWatchStore();
  const install = useInstallStore();
  const stops = [
    workspace.onAdopt((folder) => {
      editor.clear();
      overrides.clear();
      exporting.reset(folder);
      watching.clear();
      if (folder) void watching.refresh();
    }),
    editor.onSaved(() => {
      exporting.invalidate();
      void overrides.refresh();
    }),
    api.on('watch', (status) => watching.apply(status)),
    api.on('workspace.changed', (event) => {
      if (event.dir !== workspace.dir) return;
      void workspace.refreshFiles().catch(() => {});
      void editor.onDiskChange(event.files);
      // The echo of the studio's own save is no news: the save itself already invalidated the impact, and
      // one arriving late would wipe an impact worked out since.
      if (!workspace.isOwnWriteEcho(event.files)) exporting.invalidate();
    }),
    watch(
      () => install.root,
      (root, before) => {
        if (before && root !== before && workspace.dir) workspace.close();
      },
    ),
    watch(
      () => install.revision,
      () => {
        exporting.installChanged(install.lastChange);
        void overrides.refresh();
      },
    ),
  ];
  wired.set(workspace, { refs: 1, stop: () => stops.forEach((s) => s()) });
  return () => release(workspace);
}

function release(key: object): void {
  const held = wired.get(key);
  if (!held) return;
  if (--held.refs > 0) return;
  wired.delete(key);
  held.stop();
}
