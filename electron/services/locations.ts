import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';

/** Where the studio's files live: the repository's build output, and the per-user cache and state folders. */
export function repoRoot(): string {
  return fileURLToPath(new URL('../../', import.meta.url));
}
export function defaultRendererDir(): string {
  return join(repoRoot(), 'out', 'renderer');
}

export function studioVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Regenerable files (the demo install): $XDG_CACHE_HOME/modpak, else ~/.cache/modpak. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'modpak');
}

/** Things worth keeping (recent installs): $XDG_STATE_HOME/modpak, else ~/.local/state/modpak. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'modpak');
}
