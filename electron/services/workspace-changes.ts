import { readdir, stat } from 'node:fs/promises';
import { basename, resolve, sep } from 'node:path';
import { isAtomicTemporary } from '../io/byte-sink.js';
import { fileStamp } from '../io/file-stamp.js';
import { workspaceFileHash } from '../mods/workspace.js';

export interface ChangedFile {
  path: string;
  /** The content hash now, or null when the file is gone. */
  hash: string | null;
}

/**
 * Turns the watcher's batches of changed paths into the workspace files that changed.
 *
 * A folder that appears is read here, and every file in it is reported: the watcher starts following a
 * new folder only after it has seen it, so a file renamed into place in between (a save into a new
 * folder, an archive unpacked into the workspace) would otherwise never be reported. A file reported
 * that way is remembered with its stamp, and the watcher's own event for it, when one comes, is dropped
 * while the file is unchanged: the studio hears of each change once.
 */
export class WorkspaceChanges {
  /** Files reported from a folder read, by path: their stamp then. */
  private readonly fromFolders = new Map<string, string>();

  constructor(
    private readonly dir: string,
    /** How deep below `dir` files are followed (the watcher's depth: 0 is the top level only). */
    private readonly depth: number,
  ) {}

  async of(paths: readonly string[]): Promise<ChangedFile[]> {
    const found = new Map<string, ChangedFile>();
    for (const path of paths) {
      if (path === '.') continue;
      const info = await stat(resolve(this.dir, path)).catch(() => null);
      if (info?.isDirectory()) {
        for (const file of await this.filesIn(path)) found.set(file.path, file);
      } else if (info === null || this.fromFolders.get(path) !== fileStamp(info)) {
        this.fromFolders.delete(path);
        found.set(path, { path, hash: await workspaceFileHash(this.dir, path).catch(() => null) });
      }
    }
    return [...found.values()];
  }

  private async filesIn(folder: string): Promise<ChangedFile[]> {
    const names = await readdir(resolve(this.dir, folder), { recursive: true }).catch(() => [] as string[]);
    const files: ChangedFile[] = [];
    for (const name of names.sort()) {
      const path = `${folder}/${name.split(sep).join('/')}`;
      if (path.split('/').length - 1 > this.depth || isAtomicTemporary(basename(path))) continue;
      const info = await stat(resolve(this.dir, path)).catch(() => null);
      if (!info?.isFile()) continue;
      const stamp = fileStamp(info);
      // Reported already (the watcher's events for the folders below come one by one).
      if (this.fromFolders.get(path) === stamp) continue;
      const hash = await workspaceFileHash(this.dir, path).catch(() => null);
      if (hash === null) continue;
      this.fromFolders.set(path, stamp);
      files.push({ path, hash });
    }
    return files;
  }
}
