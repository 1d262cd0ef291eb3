import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import { api } from '../api';
import { useAppStore } from './app';
import { useErrorsStore } from './errors';

export interface PickRequest {
  title: string;
  /** 'file': choose a game archive; 'folder': choose the folder on show. */
  kind: 'folder' | 'file';
  /** Where to start (the path already typed, when it is one). */
  start: string | null;
  resolve: (path: string | null) => void;
}

/**
 * Choosing a folder or an archive wherever a path is typed: the native dialog where the host has one
 * (Electron), else the folder browser served by the host (FolderBrowser.vue, drawn by App.vue).
 */
export const usePickerStore = defineStore('picker', () => {
  const request = shallowRef<PickRequest | null>(null);

  function browse(kind: PickRequest['kind'], title: string, start: string | null): Promise<string | null> {
    request.value?.resolve(null);
    return new Promise((resolve) => {
      request.value = { title, kind, start: start && /^([a-zA-Z]:)?[\\/]/.test(start) ? start : null, resolve };
    });
  }

  async function pick(kind: PickRequest['kind'], title: string, start: string | null = null): Promise<string | null> {
    const native = useAppStore().info?.capabilities;
    try {
      if (kind === 'folder' && native?.pickFolder) return await api.call('dialog.pickFolder', { title });
      if (kind === 'file' && native?.pickFile) return await api.call('dialog.pickFile', { title });
    } catch (error) {
      useErrorsStore().report(error, kind === 'folder' ? 'Choosing a folder' : 'Choosing a file');
      return null;
    }
    return browse(kind, title, start);
  }

  /** The folder browser's answer (null: cancelled). */
  function finish(path: string | null): void {
    const pending = request.value;
    request.value = null;
    pending?.resolve(path);
  }

  return {
    request,
    pickFolder: (title: string, start?: string | null) => pick('folder', title, start ?? null),
    pickFile: (title: string, start?: string | null) => pick('file', title, start ?? null),
    finish,
  };
});
