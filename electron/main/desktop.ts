import type { Desktop } from '../services/handlers/desktop.js';

/**
 * The Electron shell's Desktop: the file manager through `shell`, dragging out through the window's
 * `webContents.startDrag`. Written against the few pieces of Electron it uses (passed in), so a unit test
 * drives it with fakes; index.ts hands it the real ones.
 */
export interface ElectronShellLike {
  showItemInFolder(path: string): void;
  /** Resolves with an error message, '' on success (as Electron's shell.openPath). */
  openPath(path: string): Promise<string>;
}

export interface DragItem {
  file: string;
  files?: string[];
  icon: unknown;
}

export interface WebContentsLike {
  isDestroyed(): boolean;
  startDrag(item: DragItem): void;
}

export function createDesktop(deps: { shell: ElectronShellLike; contents: () => WebContentsLike | null; icon: () => unknown }): Desktop {
  return {
    reveal: (path) => deps.shell.showItemInFolder(path),
    openFolder: async (path) => {
      const failure = await deps.shell.openPath(path);
      if (failure) throw new Error(`${path}: ${failure}`);
    },
    startDrag: (files) => {
      const contents = deps.contents();
      if (!contents || contents.isDestroyed()) throw new Error('the studio window is closed');
      // Electron takes `file` (required) and, for several, `files`; the icon is what the pointer carries.
      contents.startDrag({ file: files[0]!, ...(files.length > 1 ? { files } : {}), icon: deps.icon() });
    },
  };
}
