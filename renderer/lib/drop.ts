import type { PreloadBridge } from '../api/transport';

/**
 * What the user dropped on the window, read from a DataTransfer: files with their paths relative to what
 * was dropped (a dropped folder keeps its own name first), walked through the entries API when the
 * browser gives one; and in Electron the dropped things' paths on disk (webUtils, through the preload).
 */
export interface DroppedFile {
  path: string;
  file: File;
}

export interface Dropped {
  files: DroppedFile[];
  /** Names of dropped folders (the browser can read inside them, never say where they are). */
  folders: string[];
  /** Electron: each dropped item's path on disk (files and folders alike); empty in the browser. */
  desktopPaths: string[];
}

/** The game archives the studio opens, by extension (what a drop "anywhere" opens on the Archive screen). */
export const ARCHIVE_NAME = /\.(hpi|ufo|ccx|gp3|pak|sin|wad)$/i;

/** The most bytes one call carries from a browser drop (as base64 it must fit the host's 40 MiB request limit). */
export const DROP_BYTES_LIMIT = 28 << 20;

/** The most files one drop reads (a dropped folder is walked up to this). */
export const DROP_LIMIT = 20_000;

export function hasFiles(transfer: DataTransfer | null): boolean {
  return !!transfer && [...transfer.types].includes('Files');
}

function bridge(): PreloadBridge | undefined {
  return (globalThis as { modpak?: PreloadBridge }).modpak;
}

/** A dropped File's path on disk (Electron), or null in the browser. */
export function desktopPathOf(file: File): string | null {
  return bridge()?.pathForFile?.(file) || null;
}

function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => {
    const out: FileSystemEntry[] = [];
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(out);
        else {
          out.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

async function walk(entry: FileSystemEntry, prefix: string, out: DroppedFile[]): Promise<void> {
  if (out.length >= DROP_LIMIT || entry.name.startsWith('.')) return;
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ path, file });
  } else if (entry.isDirectory) {
    for (const child of await readAll((entry as FileSystemDirectoryEntry).createReader())) await walk(child, path, out);
  }
}

export async function readDrop(transfer: DataTransfer): Promise<Dropped> {
  const files: DroppedFile[] = [];
  const folders: string[] = [];
  const desktopPaths: string[] = [];
  // Entries and files must be taken before the first await: the DataTransfer empties after the event.
  const items = [...transfer.items].filter((i) => i.kind === 'file');
  const entries = items.map((i) => (typeof i.webkitGetAsEntry === 'function' ? i.webkitGetAsEntry() : null));
  const plain = [...transfer.files];
  for (const file of plain) {
    const path = desktopPathOf(file);
    if (path) desktopPaths.push(path);
  }
  for (let i = 0; i < Math.max(entries.length, plain.length); i++) {
    const entry = entries[i];
    if (entry?.isDirectory) {
      folders.push(entry.name);
      await walk(entry, '', files);
    } else {
      const file = plain[i];
      if (file && !file.name.startsWith('.')) files.push({ path: file.name, file });
    }
  }
  return { files, folders, desktopPaths };
}
