import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Every file under `dir`, as sorted paths relative to it with `/` separators (what an extraction wrote). */
export async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const item of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix + item.name;
    if (item.isDirectory()) out.push(...(await filesUnder(join(dir, item.name), `${rel}/`)));
    else out.push(rel);
  }
  return out.sort();
}
