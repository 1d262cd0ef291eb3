import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A cheap fingerprint of what a mount depends on, so `install.open` re-mounts only when the folder
 * changed: the name, size and time of every file at the top (where the archives are), and the time of
 * every folder below (a folder's time changes when a loose file is added, removed or renamed in it).
 * Loose files edited in place keep their folder's time; their bytes are read from disk at preview time
 * anyway. Unreadable folders are part of the fingerprint as such, never an error.
 */
export async function installSignature(root: string, disc?: string): Promise<string> {
  const parts: string[] = [];
  const walk = async (dir: string, rel: string, top: boolean) => {
    let items;
    try {
      items = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      parts.push(`!${rel}:${(err as NodeJS.ErrnoException).code ?? 'error'}`);
      return;
    }
    items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const item of items) {
      const path = join(dir, item.name);
      if (item.isDirectory()) {
        const info = await stat(path).catch(() => null);
        parts.push(`d ${rel}${item.name} ${info?.mtimeMs ?? '?'}`);
        await walk(path, `${rel}${item.name}/`, false);
      } else if (top) {
        const info = await stat(path).catch(() => null);
        parts.push(`f ${item.name} ${info?.size ?? '?'} ${info?.mtimeMs ?? '?'}`);
      }
    }
  };
  const rootInfo = await stat(root).catch(() => null);
  parts.push(`root ${rootInfo?.mtimeMs ?? '?'}`);
  await walk(root, '', true);
  if (disc) {
    parts.push('disc');
    await walk(disc, 'disc:', true);
  }
  return parts.join('\n');
}
