import nodePath from 'node:path';
import { homedir } from 'node:os';
import { HostError } from './errors.js';
import { realOrNearest } from '../../io/real-path.js';

/**
 * The folders and files the renderer may reach: those the user opened, typed or picked (plus the demo
 * install). A folder grants everything under it; a file grants itself. Paths must be absolute.
 *
 * Two checks, so neither `..` nor a symbolic link leads out: the path as written must lie under a grant,
 * and so must its real path (for the part that exists) under the grant's real path.
 */
export type GrantKind = 'folder' | 'file';

interface Grant {
  path: string;
  kind: GrantKind;
  real: string;
}

export class PathAllowlist {
  private readonly grants = new Map<string, Grant>();
  private readonly path: typeof nodePath.posix;
  private readonly foldCase: boolean;

  private readonly home: string;

  constructor(options: { platform?: NodeJS.Platform; home?: string } = {}) {
    const platform = options.platform ?? process.platform;
    this.home = options.home ?? homedir();
    this.path = platform === 'win32' ? nodePath.win32 : nodePath.posix;
    // Windows and macOS file systems compare names case-insensitively by default.
    this.foldCase = platform === 'win32' || platform === 'darwin';
  }

  /** The absolute, normalised form of a path the renderer sent; a relative path is refused. */
  normalize(path: string): string {
    if (path.includes('\0')) throw new HostError('bad-request', 'a path cannot contain NUL');
    if (!this.path.isAbsolute(path)) throw new HostError('bad-request', `give a full path, not ${JSON.stringify(path)}`);
    const resolved = this.path.resolve(path);
    return resolved.length > 1 ? resolved.replace(/[\\/]+$/, '') || resolved : resolved;
  }

  /**
   * Allow a folder (and everything under it) or a single file. A whole drive or the home folder itself is
   * refused: no install lives there, and granting it would open everything below.
   */
  async grant(path: string, kind: GrantKind): Promise<string> {
    const abs = this.normalize(path);
    if (kind === 'folder' && this.tooBroad(abs))
      throw new HostError('not-allowed', `${abs}: too broad to open; choose the folder of the install itself`);
    const real = await realOrNearest(abs, this.path);
    this.grants.set(this.key(abs) + '\0' + kind, { path: abs, kind, real });
    return abs;
  }

  /** Whether the path (as written) lies under a grant. */
  allows(path: string): boolean {
    let abs: string;
    try {
      abs = this.normalize(path);
    } catch {
      return false;
    }
    return this.grantFor(abs, (g) => g.path) !== null;
  }

  /** The normalised path when allowed, after the real-path check; otherwise a 'not-allowed' error. */
  async require(path: string, what = 'path'): Promise<string> {
    const abs = this.normalize(path);
    const refused = () => new HostError('not-allowed', `${abs}: not an opened ${what}; open or pick it first`);
    if (this.grantFor(abs, (g) => g.path) === null) throw refused();
    const real = await realOrNearest(abs, this.path);
    if (this.grantFor(real, (g) => g.real) === null) throw refused();
    return abs;
  }

  list(): { path: string; kind: GrantKind }[] {
    return [...this.grants.values()].map(({ path, kind }) => ({ path, kind }));
  }

  private grantFor(abs: string, pick: (g: Grant) => string): Grant | null {
    const key = this.key(abs);
    for (const grant of this.grants.values()) {
      const root = this.key(pick(grant));
      if (key === root) return grant;
      if (grant.kind === 'folder') {
        const prefix = root.endsWith(this.path.sep) ? root : root + this.path.sep;
        if (key.startsWith(prefix)) return grant;
      }
    }
    return null;
  }

  private tooBroad(abs: string): boolean {
    const key = this.key(abs);
    return this.path.dirname(abs) === abs || key === this.key(this.home);
  }

  private key(p: string): string {
    return this.foldCase ? p.toLowerCase() : p;
  }
}
